extension ObservableType {
  /// Emits a value only once `dueTime` has passed without another value.
  ///
  /// Each value starts (or restarts) a timer of `dueTime` on `scheduler`; a value is emitted when
  /// its timer runs out before the next value arrives, so a burst of values yields its last one,
  /// `dueTime` after the burst ends. On completion the value still waiting, if any, is emitted at
  /// once, then the completion. A failure is delivered at once and drops the waiting value.
  ///
  /// ```swift
  /// // source: 1 at 0 s, 2 at 1 s, 3 at 5 s, completed at 6 s
  /// source.debounce(.seconds(2), scheduler: scheduler)
  /// // 2 at 3 s, 3 at 6 s, completed at 6 s
  /// ```
  ///
  /// - Parameters:
  ///   - dueTime: The silence a value must be followed by to be emitted.
  ///   - scheduler: The scheduler that runs the timers and delivers the values.
  /// - Returns: A stream of the values that were followed by `dueTime` of silence.
  public func debounce(
    _ dueTime: Duration,
    scheduler: some Scheduler
  ) -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      DebounceSink(downstream: observer, dueTime: dueTime, scheduler: scheduler).run(self)
    })
  }
}

/// The subscription behind ``ObservableType/debounce(_:scheduler:)``.
private final class DebounceSink<Element: Sendable, Failure: Error>:
  Sink<Element, Failure>, @unchecked Sendable
{
  // Safety: `pending` and `generation` are guarded by `lock`; `timer` is only replaced from the
  // upstream's events, which never overlap; the rest is immutable.
  private let dueTime: Duration
  private let scheduler: any Scheduler
  private let timer = SerialDisposable()
  private var pending: Element?
  private var generation = 0

  init(downstream: AnyObserver<Element, Failure>, dueTime: Duration, scheduler: any Scheduler) {
    self.dueTime = dueTime
    self.scheduler = scheduler
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ source: Source) -> any Disposable
  where Source.Element == Element, Source.Failure == Failure {
    upstream.insert(timer)
    upstream.insert(source.subscribe(observer { [self] in on($0) }))
    return self
  }

  private func on(_ event: StreamEvent<Element, Failure>) {
    switch event {
    case .next(let element):
      let current = lock.withLock {
        pending = element
        generation &+= 1
        return generation
      }
      timer.replace(with: scheduler.schedule(after: dueTime) { [self] in fire(current) })
    case .error:
      lock.withLock {
        pending = nil
        generation &+= 1
        enqueueEvent(event)
      }
      drainEvents()
    case .completed:
      lock.withLock {
        if let element = pending { enqueueEvent(.next(element)) }
        pending = nil
        generation &+= 1
        enqueueEvent(.completed)
      }
      drainEvents()
    }
  }

  private func fire(_ expected: Int) {
    lock.withLock {
      guard generation == expected, let element = pending else { return }
      pending = nil
      enqueueEvent(.next(element))
    }
    drainEvents()
  }

  override func didDispose() {
    super.didDispose()
    lock.withLock { pending = nil }
  }
}
