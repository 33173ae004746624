extension ObservableType {
  /// Delivers every event on `scheduler`, one at a time and in order.
  ///
  /// Events are appended to a queue as they arrive; a drain of that queue is scheduled on
  /// `scheduler` only when none is scheduled or running, and it delivers every event queued
  /// meanwhile, so a burst of events costs one scheduled item. Deliveries never overlap, even on a
  /// concurrent scheduler, because only one drain exists at a time.
  ///
  /// - **Burst policy:** the queue is unbounded. The source is never blocked and no event is
  ///   dropped or merged; a source faster than the scheduler grows the queue.
  /// - **Dispose is a barrier:** once `dispose()` has been called, no event is delivered any more,
  ///   including events already queued (values, failure or completion), and including when the
  ///   drain is in the middle of a callout on another thread: whatever it finds queued when that
  ///   callout returns is dropped. Disposing from inside a callout on the scheduler stops delivery
  ///   before `dispose()` returns.
  ///
  /// ```swift
  /// results
  ///   .observe(on: MainScheduler.instance)
  ///   .subscribe(onNext: { MainActor.assumeIsolated { label.text = $0 } })
  /// ```
  ///
  /// - Parameter scheduler: The scheduler to deliver the events on.
  /// - Returns: The same events, delivered on `scheduler`.
  public func observe(on scheduler: some Scheduler) -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      ObserveOnSink(downstream: observer, scheduler: scheduler).run(self)
    })
  }
}

/// The subscription behind ``ObservableType/observe(on:)``.
private final class ObserveOnSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: `queue` and `drainScheduled` are guarded by `lock`; `drainItem` is only replaced
  // from the upstream's events, which never overlap; the rest is immutable.
  private let scheduler: any Scheduler
  private let drainItem = SerialDisposable()
  private var queue = FIFO<StreamEvent<Element, Failure>>()
  private var drainScheduled = false

  init(downstream: AnyObserver<Element, Failure>, scheduler: any Scheduler) {
    self.scheduler = scheduler
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ source: Source) -> any Disposable
  where Source.Element == Element, Source.Failure == Failure {
    upstream.insert(drainItem)
    upstream.insert(source.subscribe(observer { [self] in on($0) }))
    return self
  }

  private func on(_ event: StreamEvent<Element, Failure>) {
    let schedule = lock.withLock { () -> Bool in
      guard !isDisposed else { return false }
      queue.append(event)
      if drainScheduled { return false }
      drainScheduled = true
      return true
    }
    // A drain is scheduled only when the previous one has finished, so replacing the previous
    // item never cancels work.
    if schedule { drainItem.replace(with: scheduler.schedule { [self] in drain() }) }
  }

  private func drain() {
    while true {
      lock.lock()
      guard !isDisposed, let event = queue.popFirst() else {
        drainScheduled = false
        lock.unlock()
        return
      }
      lock.unlock()
      forward(event)
    }
  }

  override func didDispose() {
    lock.withLock { queue.removeAll() }
  }
}
