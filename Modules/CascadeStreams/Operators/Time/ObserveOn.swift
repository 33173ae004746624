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
/// ``ObservableType/observeLatest(on:)``: a ``CoalescingDelivery`` of the values, ended by the
/// terminal event, whose drain forwards downstream.
///
/// Dispose is a barrier: disposing ends the sink's lifetime before anything else, and `forward`
/// delivers nothing once it has ended, so a drain in the middle of a callout on another thread
/// drops whatever it takes next; `didDispose` then cancels the delivery, dropping what waits.
private final class ObserveOnSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: `seenFirst` is only touched from the upstream's events, which never overlap;
  // `delivery` is Sendable; the rest is immutable.
  private let delivery: CoalescingDelivery<Element, StreamEvent<Element, Failure>>
  private let firstImmediately: Bool
  /// With `firstImmediately`: whether the first value has gone downstream.
  private var seenFirst = false

  init(
    downstream: AnyObserver<Element, Failure>,
    scheduler: any Scheduler,
    coalescing: Bool,
    counters: DeliveryCounters?,
    keepsFirst: Bool,
    firstImmediately: Bool
  ) {
    // A first value delivered at once is not offered: the next one must not be kept in its place.
    delivery = CoalescingDelivery(
      scheduler: scheduler,
      coalescing: coalescing,
      keepsFirst: keepsFirst && !firstImmediately,
      counters: counters
    )
    self.firstImmediately = firstImmediately
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType>(_ source: Source) -> any Disposable
  where Source.Element == Element, Source.Failure == Failure {
    upstream.insert(source.subscribe(observer { [self] in on($0) }))
    return self
  }

  /// Where the drain delivers: downstream, through `forward`, which checks the sink is live.
  private var target: DeliveryTarget<Element, StreamEvent<Element, Failure>> {
    DeliveryTarget(
      isActive: nil,
      value: { [self] in forward(.next($0)) },
      ending: { [self] in forward($0) }
    )
  }

  private func on(_ event: StreamEvent<Element, Failure>) {
    guard case .next(let value) = event else {
      delivery.end(with: event, to: target)
      return
    }
    // Nothing is queued before the first value, and the upstream's events never overlap: it
    // can go downstream now, ahead of everything that follows.
    if firstImmediately, !seenFirst {
      seenFirst = true
      forward(event)
      return
    }
    delivery.offer(value, to: target)
  }

  override func didDispose() { delivery.cancel() }
}
