/// A hot stream that forwards what it is sent to its current subscribers.
///
/// A subject is both an observer (send it events) and a stream (subscribe to it). Sends from any
/// thread are serialized: calls to an observer never overlap, and a send made from inside a
/// callback is delivered after that callback returns, to every observer, in order. An event sent
/// while another thread is delivering is queued (unbounded FIFO) and delivered by that thread; the
/// sender does not wait. A late subscriber to a terminated subject receives the terminal event.
///
/// ```swift
/// let taps = PublishSubject<Void, Never>()
/// taps.subscribe(onNext: { print("tap") })
/// taps.onNext()
/// ```
public final class PublishSubject<Element: Sendable, Failure: Error>: ObservableType,
  ObserverType
{
  @usableFromInline let core = SubjectCore<Element, Failure>(replay: 0)

  /// Creates a subject with no subscribers.
  public init() {}

  /// Whether anyone is subscribed.
  public var hasObservers: Bool { core.hasObservers }

  /// Sends `event` to every current subscriber.
  @inlinable
  public func on(_ event: StreamEvent<Element, Failure>) { core.on(event) }

  /// Subscribes `observer` to events sent from now on.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Failure {
    core.subscribe(observer.asObserver())
  }
}

/// A subject that holds a current value and replays it to each new subscriber.
///
/// The state relay of the architectures: ``value`` is the latest value sent; a subscriber
/// receives it at once and then every later one. See ``PublishSubject`` for the ordering and
/// threading guarantees, which are the same.
///
/// ```swift
/// let count = BehaviorSubject<Int, Never>(0)
/// count.subscribe(onNext: { print($0) })  // 0
/// count.onNext(1)  // 1
/// ```
public final class BehaviorSubject<Element: Sendable, Failure: Error>: ObservableType,
  ObserverType
{
  @usableFromInline let core: SubjectCore<Element, Failure>

  /// Creates a subject whose current value is `value`.
  public init(_ value: Element) {
    core = SubjectCore(replay: 1, initial: value)
  }

  /// The latest value sent (or the initial one).
  public var value: Element {
    core.latest!
  }

  /// Whether anyone is subscribed.
  public var hasObservers: Bool { core.hasObservers }

  /// Sends `event` to every subscriber; a value becomes the current value.
  @inlinable
  public func on(_ event: StreamEvent<Element, Failure>) { core.on(event) }

  /// Subscribes `observer`, which first receives the current value.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Failure {
    core.subscribe(observer.asObserver())
  }
}

/// A subject that replays up to `bufferSize` of its latest values to each new subscriber.
///
/// See ``PublishSubject`` for the ordering and threading guarantees, which are the same. The
/// replay buffer is bounded: when full, the oldest value is dropped.
public final class ReplaySubject<Element: Sendable, Failure: Error>: ObservableType,
  ObserverType
{
  @usableFromInline let core: SubjectCore<Element, Failure>

  /// Creates a subject that replays up to `bufferSize` latest values.
  public init(bufferSize: Int) {
    core = SubjectCore(replay: bufferSize)
  }

  /// Whether anyone is subscribed.
  public var hasObservers: Bool { core.hasObservers }

  /// Sends `event` to every subscriber and records values for replay.
  @inlinable
  public func on(_ event: StreamEvent<Element, Failure>) { core.on(event) }

  /// Subscribes `observer`, which first receives the buffered values.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Failure {
    core.subscribe(observer.asObserver())
  }
}
