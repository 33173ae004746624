/// The stream of one group of ``ObservableType/groupBy(keySelector:)``: the values of the source
/// whose key is ``key``.
///
/// A group is hot: it carries the values that arrive after it is subscribed to, and a subscriber
/// that comes after the source ended receives the end (a failure or completion). While anyone is
/// subscribed to a group, the source stays subscribed, even once the subscription to the stream
/// of groups is disposed; this is RxSwift's `GroupedObservable`.
///
/// ```swift
/// words.groupBy { $0.first ?? " " }
///   .flatMap { group in group.map { "\(group.key): \($0)" } }
/// ```
public struct GroupedObservable<Key: Hashable & Sendable, Element: Sendable, Failure: Error>:
  ObservableType
{
  /// The key shared by the group's values.
  public let key: Key
  let source: Observable<Element, Failure>

  /// Subscribes `observer` to the group's values from now on.
  ///
  /// - Parameter observer: The observer receiving the group's events.
  /// - Returns: A disposable that ends the subscription.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Failure {
    source.subscribe(observer)
  }

  /// The group's stream, type-erased.
  ///
  /// - Returns: The stream of the group's values.
  public func asObservable() -> Observable<Element, Failure> { source }
}
