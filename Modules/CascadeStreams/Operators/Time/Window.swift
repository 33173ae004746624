extension ObservableType {
  /// Splits this stream into windows, each a stream of its own, closed after `count` values or
  /// once `timeSpan` has passed since it opened, whichever comes first.
  ///
  /// The first window is emitted on subscription, and a new one each time a window closes. A
  /// window is a hot stream: subscribe to it when it is emitted to see its values. A closing
  /// window completes; on completion of this stream the open window and the result complete,
  /// and on a failure both fail. This is RxSwift's `window(timeSpan:count:scheduler:)` and passes
  /// its test cases.
  ///
  /// ```swift
  /// // Counts of events per window of at most 100 events or 1 second.
  /// events.window(timeSpan: .seconds(1), count: 100, scheduler: scheduler)
  ///   .flatMap { window in window.reduce(0) { count, _ in count + 1 } }
  /// ```
  ///
  /// - Parameters:
  ///   - timeSpan: How long a window stays open at most.
  ///   - count: How many values a window holds at most; must be positive.
  ///   - scheduler: The scheduler that runs the timers and delivers the windows they open.
  /// - Returns: A stream of windows.
  public func window(
    timeSpan: Duration,
    count: Int,
    scheduler: some Scheduler
  ) -> Observable<Observable<Element, Failure>, Failure> {
    precondition(count > 0, "window(timeSpan:count:scheduler:) requires a positive count")
    return Observable<Observable<Element, Failure>, Failure>(unchecked: { observer in
      WindowSink<Element, Failure>(
        downstream: observer,
        timeSpan: timeSpan,
        count: count,
        scheduler: scheduler
      )
      .run(self)
    })
  }
}

/// The subscription behind ``ObservableType/window(timeSpan:count:scheduler:)``.
///
/// Windows are subjects, numbered as in ``ObservableType/buffer(timeSpan:count:scheduler:)``.
/// What to do is decided under `lock` — which window a value goes to, whether it closes, which
/// window opens — and enqueued, in the same critical section, as ``WindowItem``s on the one
/// queue of ``OrderedSink``; a single thread at a time then carries them out with the lock
/// released. A window's delivery downstream, the values sent into it and its completion thus
/// happen in the order they were decided, whichever thread (the source's, the timer's) decided
/// them: a value never reaches a window before the window has reached its subscriber.
private final class WindowSink<Element: Sendable, Failure: Error>:
  OrderedSink<Observable<Element, Failure>, Failure, WindowItem<Element, Failure>>,
  @unchecked Sendable
{
  // Safety: `subject`, `filled`, `window`, `stopped` and `timer` are read and written only with
  // `lock` held; the rest is immutable.
  private let timeSpan: Duration
  private let count: Int
  private let scheduler: any Scheduler
  private var subject = PublishSubject<Element, Failure>()
  private var filled = 0
  private var window = 0
  private var stopped = false
  private var timer: (any Disposable)?

  init(
    downstream: AnyObserver<Observable<Element, Failure>, Failure>,
    timeSpan: Duration,
    count: Int,
    scheduler: any Scheduler
  ) {
    self.timeSpan = timeSpan
    self.count = count
    self.scheduler = scheduler
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ source: Source) -> any Disposable
  where Source.Element == Element, Source.Failure == Failure {
    if lock.withLock({ enqueue(.open(subject)) }) { drain() }
    startTimer(for: 0)
    upstream.insert(source.subscribe(observer { [self] in on($0) }))
    return self
  }

  private func on(_ event: StreamEvent<Element, Failure>) {
    let (mustDrain, opened) = lock.withLock { () -> (Bool, Int?) in
      guard !stopped else { return (false, nil) }
      switch event {
      case .next(let element):
        var mustDrain = enqueue(.value(element, into: subject))
        filled += 1
        guard filled == count else { return (mustDrain, nil) }
        let (drains, opened) = rotate()
        mustDrain = mustDrain || drains
        return (mustDrain, opened)
      case .error(let failure):
        stopped = true
        window &+= 1
        return (enqueue(.failed(subject, failure)), nil)
      case .completed:
        stopped = true
        window &+= 1
        return (enqueue(.completed(subject)), nil)
      }
    }
    if mustDrain { drain() }
    if let opened { startTimer(for: opened) }
  }

  /// Closes the open window, opens the next one and enqueues both; returns whether the caller
  /// must drain and the number of the window opened.
  ///
  /// - Precondition: `lock` is held.
  private func rotate() -> (Bool, Int) {
    let closes = enqueue(.close(subject))
    subject = PublishSubject()
    filled = 0
    window &+= 1
    let opens = enqueue(.open(subject))
    return (closes || opens, window)
  }

  private func startTimer(for expected: Int) {
    let started = scheduler.schedule(after: timeSpan) { [self] in fire(expected) }
    let replaced = lock.withLock { () -> (any Disposable)? in
      guard window == expected, !isDisposed else { return started }
      defer { timer = started }
      return timer
    }
    replaced?.dispose()
  }

  private func fire(_ expected: Int) {
    let rotated = lock.withLock { () -> (Bool, Int)? in
      guard window == expected, !stopped, !isDisposed else { return nil }
      return rotate()
    }
    guard let (mustDrain, opened) = rotated else { return }
    if mustDrain { drain() }
    startTimer(for: opened)
  }

  override func handle(_ item: WindowItem<Element, Failure>) {
    switch item {
    case .open(let subject): forward(.next(subject.asObservable()))
    case .value(let element, let subject): subject.onNext(element)
    case .close(let subject): subject.onCompleted()
    case .failed(let subject, let failure):
      subject.onError(failure)
      forward(.error(failure))
    case .completed(let subject):
      subject.onCompleted()
      forward(.completed)
    }
  }

  override func didDispose() {
    super.didDispose()
    let pending = lock.withLock { () -> (any Disposable)? in
      defer { timer = nil }
      return timer
    }
    pending?.dispose()
  }
}

/// What ``WindowSink`` has decided, in the order it decided it.
private enum WindowItem<Element: Sendable, Failure: Error> {
  /// Deliver a newly opened window downstream.
  case open(PublishSubject<Element, Failure>)
  /// Send a value into a window.
  case value(Element, into: PublishSubject<Element, Failure>)
  /// Complete a window that is full or whose time is up.
  case close(PublishSubject<Element, Failure>)
  /// Fail the open window, then the result.
  case failed(PublishSubject<Element, Failure>, Failure)
  /// Complete the open window, then the result.
  case completed(PublishSubject<Element, Failure>)
}
