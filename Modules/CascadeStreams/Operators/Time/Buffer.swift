extension ObservableType {
  /// Collects values into arrays, emitted each time `count` values have arrived or `timeSpan`
  /// has passed since the previous array, whichever comes first.
  ///
  /// A window opens on subscription and each time an array is emitted; it closes when it holds
  /// `count` values or when its timer of `timeSpan` on `scheduler` runs out, and its values are
  /// emitted then, as an array — an empty one if no value arrived in time. On completion the
  /// values of the open window are emitted (even none), then the completion; a failure is
  /// delivered at once and drops them. This is RxSwift's `buffer(timeSpan:count:scheduler:)`
  /// and passes its test cases.
  ///
  /// ```swift
  /// // Log lines in batches of at most 100, at least every 5 seconds.
  /// lines.buffer(timeSpan: .seconds(5), count: 100, scheduler: scheduler)
  /// ```
  ///
  /// - Parameters:
  ///   - timeSpan: How long a window stays open at most.
  ///   - count: How many values a window holds at most; must be positive.
  ///   - scheduler: The scheduler that runs the timers and delivers the arrays they close.
  /// - Returns: A stream of the windows' values, as arrays.
  public func buffer(
    timeSpan: Duration,
    count: Int,
    scheduler: some Scheduler
  ) -> Observable<[Element], Failure> {
    precondition(count > 0, "buffer(timeSpan:count:scheduler:) requires a positive count")
    return Observable(unchecked: { observer in
      BufferSink<Element, Failure>(
        downstream: observer,
        timeSpan: timeSpan,
        count: count,
        scheduler: scheduler
      )
      .run(self)
    })
  }
}

/// The subscription behind ``ObservableType/buffer(timeSpan:count:scheduler:)``.
///
/// Each window has a number; a timer closes the window it was started for, and only if that is
/// still the open one. Timers are started outside `lock` (a scheduler is called, not user code,
/// but it may take locks of its own); the one kept is always the open window's, so a late
/// timer for an older window is disposed of instead of replacing a newer one.
private final class BufferSink<Element: Sendable, Failure: Error>:
  Sink<[Element], Failure>, @unchecked Sendable
{
  // Safety: `buffer`, `window` and `timer` are read and written only with `lock` held; the rest
  // is immutable.
  private let timeSpan: Duration
  private let count: Int
  private let scheduler: any Scheduler
  private var buffer: [Element] = []
  private var window = 0
  private var timer: (any Disposable)?

  init(
    downstream: AnyObserver<[Element], Failure>,
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
    startTimer(for: 0)
    upstream.insert(source.subscribe(observer { [self] in on($0) }))
    return self
  }

  private func on(_ event: StreamEvent<Element, Failure>) {
    switch event {
    case .next(let element):
      let opened = lock.withLock { () -> Int? in
        buffer.append(element)
        return buffer.count == count ? closeWindow() : nil
      }
      if let opened { startTimer(for: opened) }
    case .error(let failure):
      lock.withLock {
        buffer = []
        window &+= 1
        enqueueEvent(.error(failure))
      }
    case .completed:
      lock.withLock {
        _ = closeWindow()
        enqueueEvent(.completed)
      }
    }
    drainEvents()
  }

  /// Emits the open window's values and opens the next window, returning its number.
  ///
  /// - Precondition: `lock` is held.
  private func closeWindow() -> Int {
    enqueueEvent(.next(buffer))
    buffer = []
    window &+= 1
    return window
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
    let opened = lock.withLock { () -> Int? in
      guard window == expected, !isDisposed else { return nil }
      return closeWindow()
    }
    if let opened { startTimer(for: opened) }
    drainEvents()
  }

  override func didDispose() {
    super.didDispose()
    let pending = lock.withLock { () -> (any Disposable)? in
      buffer = []
      defer { timer = nil }
      return timer
    }
    pending?.dispose()
  }
}
