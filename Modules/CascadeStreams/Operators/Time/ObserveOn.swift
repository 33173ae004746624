import Synchronization

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
    observe(on: scheduler, coalescing: false, counters: nil)
  }

  /// Delivers on `scheduler` the latest value: a value that arrives while another waits for its
  /// delivery replaces it.
  ///
  /// For a consumer that wants the newest value, not every one — a screen showing a state. Like
  /// ``observe(on:)``, deliveries happen one at a time, in order, on `scheduler`, and dispose is a
  /// barrier; but a burst faster than the scheduler keeps **one** value waiting, never a queue.
  ///
  /// - **Burst policy:** at most one value waits; a newer one replaces it. A failure or
  ///   completion is never dropped: it is delivered after the waiting value.
  ///
  /// ```swift
  /// positions
  ///   .observeLatest(on: MainScheduler.instance)
  ///   .subscribe(onNext: { MainActor.assumeIsolated { marker.move(to: $0) } })
  /// ```
  ///
  /// - Parameter scheduler: The scheduler to deliver the events on.
  /// - Returns: The latest values, then the terminal event, delivered on `scheduler`.
  public func observeLatest(on scheduler: some Scheduler) -> Observable<Element, Failure> {
    observe(on: scheduler, coalescing: true, counters: nil)
  }

  /// ``observe(on:)`` or, when `coalescing`, ``observeLatest(on:)``, counting the values that
  /// wait and those replaced in `counters`.
  @usableFromInline
  package func observe(
    on scheduler: some Scheduler,
    coalescing: Bool,
    counters: DeliveryCounters?
  ) -> Observable<Element, Failure> {
    observe(on: scheduler, coalescing: coalescing, counters: counters, keepsFirst: false)
  }

  /// ``observe(on:)`` or, when `coalescing`, ``observeLatest(on:)``, counting the values that
  /// wait and those replaced in `counters`.
  ///
  /// For a state stream, whose first value is the state a subscriber subscribed to: with
  /// `keepsFirst`, that value is never replaced when coalescing; with `firstImmediately`, it is
  /// delivered at once, on the thread that emits it, and the later ones on `scheduler`.
  @usableFromInline
  package func observe(
    on scheduler: some Scheduler,
    coalescing: Bool,
    counters: DeliveryCounters?,
    keepsFirst: Bool,
    firstImmediately: Bool = false
  ) -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      ObserveOnSink(
        downstream: observer,
        scheduler: scheduler,
        coalescing: coalescing,
        counters: counters,
        keepsFirst: keepsFirst,
        firstImmediately: firstImmediately
      ).run(self)
    })
  }
}

/// The subscription behind ``ObservableType/observe(on:)`` and
/// ``ObservableType/observeLatest(on:)``.
private final class ObserveOnSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: `queue`, `first`, `seenFirst`, `latest`, `terminal` and `drainScheduled` are
  // guarded by `lock`; `drainItem` is only replaced from the upstream's events, which never
  // overlap; the rest is immutable.
  private let scheduler: any Scheduler
  private let coalescing: Bool
  private let counters: DeliveryCounters?
  private let keepsFirst: Bool
  private let firstImmediately: Bool
  private let drainItem = SerialDisposable()
  /// Every event waiting, when not coalescing.
  private var queue = FIFO<StreamEvent<Element, Failure>>()
  /// When coalescing with `keepsFirst`: the first value, never replaced, until delivered.
  private var first: Element?
  /// Whether a value has arrived.
  private var seenFirst = false
  /// When coalescing: the one value waiting, then the terminal event.
  private var latest: Element?
  private var terminal: StreamEvent<Element, Failure>?
  private var drainScheduled = false

  init(
    downstream: AnyObserver<Element, Failure>,
    scheduler: any Scheduler,
    coalescing: Bool,
    counters: DeliveryCounters?,
    keepsFirst: Bool,
    firstImmediately: Bool
  ) {
    self.keepsFirst = keepsFirst
    self.scheduler = scheduler
    self.coalescing = coalescing
    self.counters = counters
    self.firstImmediately = firstImmediately
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ source: Source) -> any Disposable
  where Source.Element == Element, Source.Failure == Failure {
    upstream.insert(drainItem)
    upstream.insert(source.subscribe(observer { [self] in on($0) }))
    return self
  }

  private func on(_ event: StreamEvent<Element, Failure>) {
    var replaced = false
    var immediate = false
    let (accepted, schedule) = lock.withLock { () -> (Bool, Bool) in
      guard !isDisposed else { return (false, false) }
      var isFirst = false
      if case .next = event, !seenFirst {
        seenFirst = true
        isFirst = true
        if firstImmediately {
          immediate = true
          return (false, false)
        }
      }
      if !coalescing {
        queue.append(event)
      } else if case .next(let value) = event {
        // The first value is never replaced: a subscriber sees what it subscribed to.
        if isFirst, keepsFirst {
          first = value
        } else {
          replaced = latest != nil
          latest = value
        }
      } else {
        terminal = event
      }
      if drainScheduled { return (true, false) }
      drainScheduled = true
      return (true, true)
    }
    // Nothing is queued before the first value, and the upstream's events never overlap: it
    // can go downstream now, ahead of everything that follows.
    if immediate {
      forward(event)
      return
    }
    if accepted, let counters, case .next = event {
      if replaced {
        counters.coalesced.add(1, ordering: .relaxed)
      } else {
        counters.pending.add(1, ordering: .relaxed)
      }
    }
    // A drain is scheduled only when the previous one has finished, so replacing the previous
    // item never cancels work.
    if schedule { drainItem.replace(with: scheduler.schedule { [self] in drain() }) }
  }

  private func drain() {
    while true {
      lock.lock()
      guard !isDisposed, let event = takeNext() else {
        drainScheduled = false
        lock.unlock()
        return
      }
      lock.unlock()
      if let counters, case .next = event { counters.pending.subtract(1, ordering: .relaxed) }
      forward(event)
    }
  }

  /// The next event to deliver, under the lock.
  private func takeNext() -> StreamEvent<Element, Failure>? {
    if !coalescing { return queue.popFirst() }
    if let value = first {
      first = nil
      return .next(value)
    }
    if let value = latest {
      latest = nil
      return .next(value)
    }
    defer { terminal = nil }
    return terminal
  }

  override func didDispose() {
    let dropped = lock.withLock { () -> Int in
      let values =
        coalescing
        ? (latest == nil ? 0 : 1) + (first == nil ? 0 : 1)
        : queue.elements.reduce(0) { count, event in
          if case .next = event { return count + 1 }
          return count
        }
      queue.removeAll()
      latest = nil
      first = nil
      terminal = nil
      return values
    }
    if let counters, dropped > 0 { counters.pending.subtract(dropped, ordering: .relaxed) }
  }
}
