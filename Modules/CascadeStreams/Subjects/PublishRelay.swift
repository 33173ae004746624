/// A hot stream of values that cannot terminate: a ``PublishSubject`` that only accepts values.
///
/// A relay is RxRelay's `PublishRelay`: send it values with ``accept(_:)``; there is no way to
/// send a failure or completion, so its subscribers see values only, for as long as they stay
/// subscribed. It suits event inputs of a UI (taps, a reactor's action input) that must outlive
/// any one producer. Binding a stream to a relay with `bind(to:)` forwards the stream's values
/// and ignores its completion.
///
/// Ordering and threading are those of ``PublishSubject``: sends from any thread are serialized,
/// and a value accepted from inside a callback is delivered after that callback returns.
///
/// ```swift
/// let taps = PublishRelay<Void>()
/// taps.subscribe(onNext: { print("tap") })
/// taps.accept(())
///
/// for await _ in taps.values { print("tap") }  // the relay as an `AsyncSequence`
/// ```
public final class PublishRelay<Element: Sendable>: ObservableType {
  /// A relay never fails.
  public typealias Failure = Never

  @usableFromInline let subject = PublishSubject<Element, Never>()

  /// Creates a relay with no subscribers.
  public init() {}

  /// Whether anyone is subscribed.
  public var hasObservers: Bool { subject.hasObservers }

  /// Sends `element` to every current subscriber.
  ///
  /// - Parameter element: The value to send.
  @inlinable
  public func accept(_ element: Element) { subject.onNext(element) }

  /// Subscribes `observer` to the values accepted from now on.
  ///
  /// - Parameter observer: The observer receiving the values.
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Never {
    subject.subscribe(observer)
  }
}
