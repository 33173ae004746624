/// A hot stream that replays its latest values and cannot terminate: a ``ReplaySubject`` that
/// only accepts values.
///
/// A relay is RxRelay's `ReplayRelay` (which is created with `ReplayRelay.create(bufferSize:)`;
/// here it is an initializer, as for ``ReplaySubject``). Each new subscriber first receives up to
/// `bufferSize` of the latest values accepted, then every later one. There is no way to send a
/// failure or completion. Binding a stream to a relay with `bind(to:)` forwards the stream's
/// values and ignores its completion.
///
/// Ordering and threading are those of ``ReplaySubject``.
///
/// ```swift
/// let log = ReplayRelay<String>(bufferSize: 2)
/// log.accept("a")
/// log.accept("b")
/// log.accept("c")
/// log.subscribe(onNext: { print($0) })  // "b", "c"
/// ```
public final class ReplayRelay<Element: Sendable>: ObservableType {
  /// A relay never fails.
  public typealias Failure = Never

  @usableFromInline let subject: ReplaySubject<Element, Never>

  /// Creates a relay that replays up to `bufferSize` latest values.
  ///
  /// - Parameter bufferSize: How many of the latest values a new subscriber receives first.
  public init(bufferSize: Int) {
    subject = ReplaySubject(bufferSize: bufferSize)
  }

  /// Whether anyone is subscribed.
  public var hasObservers: Bool { subject.hasObservers }

  /// Sends `element` to every subscriber and keeps it for replay.
  ///
  /// - Parameter element: The value to send.
  @inlinable
  public func accept(_ element: Element) { subject.onNext(element) }

  /// Subscribes `observer`, which first receives the buffered values.
  ///
  /// - Parameter observer: The observer receiving the values.
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Never {
    subject.subscribe(observer)
  }
}
