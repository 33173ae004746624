extension ObservableType {
  /// Shifts every value and the completion later by `dueTime` on `scheduler`.
  ///
  /// Each value, and the completion, is delivered `dueTime` after it arrived, in the order it
  /// arrived, on `scheduler`. A failure is **not** delayed (RxSwift's choice): it is delivered as
  /// soon as it arrives, and values still waiting for their time are dropped, so an error is
  /// never held back behind a delay it has no reason to respect. The source is let go of when it
  /// completes, while its completion waits for its time.
  ///
  /// ```swift
  /// // source: 1 at 0 s, 2 at 1 s, completed at 2 s
  /// source.delay(.seconds(5), scheduler: scheduler)
  /// // 1 at 5 s, 2 at 6 s, completed at 7 s
  /// ```
  ///
  /// - Parameters:
  ///   - dueTime: How much later each event is delivered.
  ///   - scheduler: The scheduler that measures the delay and delivers the events.
  /// - Returns: A stream of the same events, later.
  public func delay(
    _ dueTime: Duration,
    scheduler: some Scheduler
  ) -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      DelaySink(downstream: observer, dueTime: dueTime, scheduler: scheduler).run(self)
    })
  }

  /// Shifts every value and the completion later by `dueTime` on `scheduler`.
  ///
  /// Combine's spelling of ``delay(_:scheduler:)``, for `delay(for: .milliseconds(500),
  /// scheduler: …)`.
  ///
  /// - Parameters:
  ///   - dueTime: How much later each event is delivered.
  ///   - scheduler: The scheduler that measures the delay and delivers the events.
  /// - Returns: A stream of the same events, later.
  public func delay(
    for dueTime: Duration,
    scheduler: some Scheduler
  ) -> Observable<Element, Failure> {
    delay(dueTime, scheduler: scheduler)
  }
}

/// The subscription behind ``ObservableType/delay(_:scheduler:)``: one timer per event, each of
/// which releases the oldest waiting event, so events leave in arrival order even when timers
/// run concurrently.
private final class DelaySink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: `waiting` is guarded by `lock`; the rest is immutable.
  private let dueTime: Duration
  private let scheduler: any Scheduler
  private let source = SingleAssignmentDisposable()
  private var waiting = FIFO<StreamEvent<Element, Failure>>()

  init(downstream: AnyObserver<Element, Failure>, dueTime: Duration, scheduler: any Scheduler) {
    self.dueTime = dueTime
    self.scheduler = scheduler
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ source: Source) -> any Disposable
  where Source.Element == Element, Source.Failure == Failure {
    upstream.insert(self.source)
    self.source.setDisposable(source.subscribe(observer { [self] in on($0) }))
    return self
  }

  private func on(_ event: StreamEvent<Element, Failure>) {
    if case .error = event {
      lock.withLock {
        waiting.removeAll()
        enqueueEvent(event)
      }
      drainEvents()
      return
    }
    lock.withLock { waiting.append(event) }
    let slot = SingleAssignmentDisposable()
    guard let key = upstream.insert(slot) else { return }
    slot.setDisposable(
      scheduler.schedule(after: dueTime) { [self] in
        upstream.detach(for: key)
        lock.withLock {
          if let due = waiting.popFirst() { enqueueEvent(due) }
        }
        drainEvents()
      }
    )
    if case .completed = event { source.dispose() }
  }

  override func didDispose() {
    super.didDispose()
    lock.withLock { waiting.removeAll() }
  }
}
