extension ObservableType {
  /// Switches to `other` if no value arrives within `dueTime`.
  ///
  /// A timer of `dueTime` on `scheduler` starts at subscription and restarts with each value. If
  /// it runs out before the source terminates, the source subscription is disposed and `other` is
  /// subscribed in its place; later source events are ignored. A terminal event of the source
  /// before then stops the timer.
  ///
  /// ```swift
  /// let reply = request.timeout(.seconds(10), scheduler: scheduler, other: .just(.cached))
  /// ```
  ///
  /// - Parameters:
  ///   - dueTime: The longest silence allowed, at the start and between values.
  ///   - scheduler: The scheduler that runs the timer.
  ///   - other: The stream to continue with once the timer runs out.
  /// - Returns: The source's events, then `other`'s events if the source went silent too long.
  public func timeout(
    _ dueTime: Duration,
    scheduler: some Scheduler,
    other: Observable<Element, Failure>
  ) -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      TimeoutSink(downstream: observer, dueTime: dueTime, scheduler: scheduler, other: other)
        .run(self)
    })
  }

  /// Fails with `error` if no value arrives within `dueTime`.
  ///
  /// A timer of `dueTime` on `scheduler` starts at subscription and restarts with each value; if
  /// it runs out before the source terminates, the source subscription is disposed and the stream
  /// fails with `error`.
  ///
  /// ```swift
  /// request.timeout(.seconds(10), scheduler: scheduler, error: .timedOut)
  /// ```
  ///
  /// - Parameters:
  ///   - dueTime: The longest silence allowed, at the start and between values.
  ///   - scheduler: The scheduler that runs the timer.
  ///   - error: The failure to end with once the timer runs out.
  /// - Returns: The source's events, or a failure if the source went silent too long.
  public func timeout(
    _ dueTime: Duration,
    scheduler: some Scheduler,
    error: Failure
  ) -> Observable<Element, Failure> {
    timeout(dueTime, scheduler: scheduler, other: .error(error))
  }
}

extension ObservableType where Failure == any Error {
  /// Fails with ``TimeoutError`` if no value arrives within `dueTime`.
  ///
  /// A timer of `dueTime` on `scheduler` starts at subscription and restarts with each value; if
  /// it runs out before the source terminates, the source subscription is disposed and the stream
  /// fails with `TimeoutError(dueTime: dueTime)`.
  ///
  /// ```swift
  /// // an HTTP-like effect: give up after 10 s, try 4 times in all
  /// request
  ///   .timeout(.seconds(10), scheduler: scheduler)
  ///   .retry(maxAttempts: 4, backoff: .exponential(initial: .seconds(1)), scheduler: scheduler)
  /// ```
  ///
  /// - Parameters:
  ///   - dueTime: The longest silence allowed, at the start and between values.
  ///   - scheduler: The scheduler that runs the timer.
  /// - Returns: The source's events, or a ``TimeoutError`` if the source went silent too long.
  public func timeout(
    _ dueTime: Duration,
    scheduler: some Scheduler
  ) -> Observable<Element, any Error> {
    timeout(dueTime, scheduler: scheduler, other: .error(TimeoutError(dueTime: dueTime)))
  }
}

/// The subscription behind ``ObservableType/timeout(_:scheduler:other:)``.
private final class TimeoutSink<Element: Sendable, Failure: Error>:
  Sink<Element, Failure>, @unchecked Sendable
{
  // Safety: `generation` and `switched` are guarded by `lock`; `timer` is only replaced from
  // `run` and then from the source's events, which never overlap; the rest is immutable.
  private let dueTime: Duration
  private let scheduler: any Scheduler
  private let other: Observable<Element, Failure>
  private let timer = SerialDisposable()
  private let source = SingleAssignmentDisposable()
  private var generation = 0
  private var switched = false

  init(
    downstream: AnyObserver<Element, Failure>,
    dueTime: Duration,
    scheduler: any Scheduler,
    other: Observable<Element, Failure>
  ) {
    self.dueTime = dueTime
    self.scheduler = scheduler
    self.other = other
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ upstreamSource: Source) -> any Disposable
  where Source.Element == Element, Source.Failure == Failure {
    upstream.insert(timer)
    upstream.insert(source)
    arm(0)
    source.setDisposable(upstreamSource.subscribe(observer { [self] in onSource($0) }))
    return self
  }

  private func arm(_ expected: Int) {
    timer.replace(with: scheduler.schedule(after: dueTime) { [self] in fire(expected) })
  }

  private func onSource(_ event: StreamEvent<Element, Failure>) {
    let current = lock.withLock { () -> Int? in
      guard !switched else { return nil }
      generation &+= 1
      enqueueEvent(event)
      return generation
    }
    guard let current else { return }
    if !event.isTerminal { arm(current) }
    drainEvents()
  }

  private func fire(_ expected: Int) {
    let fires = lock.withLock { () -> Bool in
      guard !switched, generation == expected else { return false }
      switched = true
      return true
    }
    guard fires else { return }
    source.dispose()
    upstream.insert(other.subscribe(observer { [self] in serialize($0) }))
  }
}
