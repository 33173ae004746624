public import CascadeStreams

/// How a subscription hands values to a scheduler (``Delivery``), shared by whole-state
/// subscriptions (``SubscriptionBox``) and the subscription index (``ElementEntry``): decided once
/// at subscription, so no notification switches over `Delivery` (or copies its existential).
///
/// The delivery itself is CascadeStreams' `CoalescingDelivery`, the one behind `observe(on:)`:
/// the latest value only when coalescing (``Delivery/scheduler(_:)``), every value in order
/// otherwise (``Delivery/everyState(_:)``), one drain scheduled at a time, so a burst costs one
/// scheduled job. The first value offered — the subscription's initial state — is never replaced:
/// it is delivered first, then the latest of what followed, so a subscriber always sees the state
/// it subscribed to (ReactorKit's `state.skip(1)` idiom depends on it). Ending the subscription
/// (``cancel()``) drops what waits at once — the values are released and leave the backlog —
/// instead of leaving them in the scheduler's queue until it runs.
@usableFromInline
struct ScheduledDelivery<Value: Sendable>: Sendable {
  /// `nil` for synchronous delivery.
  @usableFromInline let queue: CoalescingDelivery<Value, Never>?

  @inlinable
  init(_ delivery: Delivery, counters: DeliveryCounters?) {
    switch delivery {
    case .synchronous:
      queue = nil
    case .scheduler(let target):
      queue = CoalescingDelivery(
        scheduler: target,
        coalescing: true,
        keepsFirst: true,
        counters: counters
      )
    case .everyState(let target):
      queue = CoalescingDelivery(
        scheduler: target,
        coalescing: false,
        keepsFirst: true,
        counters: counters
      )
    }
  }

  /// Whether values are delivered on the notifying thread (then ``schedule(_:isActive:_:)`` is
  /// not used).
  @inlinable
  var isSynchronous: Bool { queue == nil }

  /// Hands `value` to `handler` through the scheduler, if `isActive` still holds when it runs:
  /// the latest value when coalescing, otherwise each one in order; counted in the counters.
  @inlinable
  func schedule(
    _ value: Value,
    isActive: @escaping @Sendable () -> Bool,
    _ handler: @escaping @Sendable (Value) -> Void
  ) {
    queue?.offer(value, to: DeliveryTarget(isActive: isActive, value: handler))
  }

  /// Drops the values waiting: the subscription has ended.
  @inlinable
  func cancel() { queue?.cancel() }

  /// What drops the values waiting when the subscription ends (``SubscriptionBox/endDelivery``),
  /// or `nil` for a synchronous delivery, which keeps none.
  @inlinable
  var end: (@Sendable () -> Void)? {
    queue.map { queue in { @Sendable in queue.cancel() } }
  }
}
