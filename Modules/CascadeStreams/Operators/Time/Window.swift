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
/// Windows are subjects, numbered as in ``ObservableType/buffer(timeSpan:count:scheduler:)``:
/// what to do is decided under `lock` (which window a value goes to, whether it closes, the new
/// window enqueued for delivery), and the sends into windows happen after unlocking.
private final class WindowSink<Element: Sendable, Failure: Error>:
  Sink<Observable<Element, Failure>, Failure>, @unchecked Sendable
{
  // Safety: `subject`, `filled`, `window` and `timer` are read and written only with `lock`
  // held; the rest is immutable.
  private let timeSpan: Duration
  private let count: Int
  private let scheduler: any Scheduler
  private var subject = PublishSubject<Element, Failure>()
  private var filled = 0
  private var window = 0
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
    lock.withLock { enqueueEvent(.next(subject.asObservable())) }
    drainEvents()
    startTimer(for: 0)
    upstream.insert(source.subscribe(observer { [self] in on($0) }))
    return self
  }

  private func on(_ event: StreamEvent<Element, Failure>) {
    switch event {
    case .next(let element):
      let (target, closed) = lock.withLock {
        () -> (PublishSubject<Element, Failure>, (PublishSubject<Element, Failure>, Int)?) in
        let target = subject
        filled += 1
        return (target, filled == count ? rotate() : nil)
      }
      target.onNext(element)
      if let (old, opened) = closed {
        old.onCompleted()
        startTimer(for: opened)
      }
    case .error(let failure):
      let target = lock.withLock {
        window &+= 1
        enqueueEvent(.error(failure))
        return subject
      }
      target.onError(failure)
    case .completed:
      let target = lock.withLock {
        window &+= 1
        enqueueEvent(.completed)
        return subject
      }
      target.onCompleted()
    }
    drainEvents()
  }

  /// Opens the next window and enqueues it for delivery; returns the window closed and the
  /// number of the one opened.
  ///
  /// - Precondition: `lock` is held.
  private func rotate() -> (PublishSubject<Element, Failure>, Int) {
    let closed = subject
    subject = PublishSubject()
    filled = 0
    window &+= 1
    enqueueEvent(.next(subject.asObservable()))
    return (closed, window)
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
    let closed = lock.withLock { () -> (PublishSubject<Element, Failure>, Int)? in
      guard window == expected, !isDisposed else { return nil }
      return rotate()
    }
    if let (old, opened) = closed {
      old.onCompleted()
      startTimer(for: opened)
    }
    drainEvents()
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
