/// A current value that cannot terminate: a ``BehaviorSubject`` that only accepts values.
///
/// A relay is RxRelay's `BehaviorRelay`: ``value`` is the latest value accepted (or the initial
/// one); a subscriber receives it at once and then every later one. There is no way to send a
/// failure or completion. Binding a stream to a relay with `bind(to:)` forwards the stream's
/// values and ignores its completion.
///
/// Ordering and threading are those of ``BehaviorSubject``.
///
/// ```swift
/// let count = BehaviorRelay(value: 0)
/// count.subscribe(onNext: { print($0) })  // 0
/// count.accept(count.value + 1)  // 1
/// ```
public final class BehaviorRelay<Element: Sendable>: ObservableType {
  /// A relay never fails.
  public typealias Failure = Never

  @usableFromInline let subject: BehaviorSubject<Element, Never>

  /// Creates a relay whose current value is `value`.
  ///
  /// - Parameter value: The initial current value.
  public init(value: Element) {
    subject = BehaviorSubject(value)
  }

  /// The latest value accepted (or the initial one).
  public var value: Element { subject.value }

  /// Whether anyone is subscribed.
  public var hasObservers: Bool { subject.hasObservers }

  /// Makes `element` the current value and sends it to every subscriber.
  ///
  /// - Parameter element: The new value.
  @inlinable
  public func accept(_ element: Element) { subject.onNext(element) }

  /// Subscribes `observer`, which first receives the current value.
  ///
  /// - Parameter observer: The observer receiving the values.
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Never {
    subject.subscribe(observer)
  }
}
