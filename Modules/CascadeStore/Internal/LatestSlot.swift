public import CascadeStreams
public import Synchronization

/// The one value a coalescing delivery keeps waiting on its scheduler: a newer value replaces
/// it, so a slow subscriber gets the latest, never a backlog (``Delivery/scheduler(_:)``).
@usableFromInline
final class LatestSlot<Value: Sendable>: Sendable {
  @usableFromInline let storage = LockedValue<(value: Value?, scheduled: Bool)>((nil, false))
  @usableFromInline let counters: DeliveryCounters?

  @inlinable
  init(counters: DeliveryCounters?) {
    self.counters = counters
  }

  /// Puts `value` in the slot; `true` if a delivery must be scheduled (none is waiting), `false`
  /// if it replaced the waiting value (counted as coalesced).
  @inlinable
  func offer(_ value: Value) -> Bool {
    let replaced = storage.withLock { slot -> Bool in
      let replaced = slot.scheduled
      slot.value = value
      slot.scheduled = true
      return replaced
    }
    if replaced {
      counters?.coalesced.add(1, ordering: .relaxed)
    } else {
      counters?.pending.add(1, ordering: .relaxed)
    }
    return !replaced
  }

  /// Takes the waiting value, on the scheduler, as its delivery runs.
  @inlinable
  func take() -> Value? {
    let value = storage.withLock { slot -> Value? in
      defer {
        slot.value = nil
        slot.scheduled = false
      }
      return slot.value
    }
    counters?.pending.subtract(1, ordering: .relaxed)
    return value
  }
}

/// How a subscription hands values to a scheduler (``Delivery``), shared by whole-state
/// subscriptions (``SubscriptionBox``) and the subscription index (``ElementEntry``): decided once
/// at subscription, so no notification switches over `Delivery` (or copies its existential).
@usableFromInline
struct ScheduledDelivery<Value: Sendable>: Sendable {
  /// `nil` for synchronous delivery.
  @usableFromInline let scheduler: (any Scheduler)?
  /// The waiting value of a coalescing delivery (``Delivery/scheduler(_:)``).
  @usableFromInline let latest: LatestSlot<Value>?
  @usableFromInline let counters: DeliveryCounters?

  @inlinable
  init(_ delivery: Delivery, counters: DeliveryCounters?) {
    switch delivery {
    case .synchronous:
      scheduler = nil
      latest = nil
    case .scheduler(let target):
      scheduler = target
      latest = LatestSlot(counters: counters)
    case .everyState(let target):
      scheduler = target
      latest = nil
    }
    self.counters = counters
  }

  /// Whether values are delivered on the notifying thread (then ``schedule(_:isActive:_:)`` is
  /// not used).
  @inlinable
  var isSynchronous: Bool { scheduler == nil }

  /// Hands `value` to `handler` through the scheduler, if `isActive` still holds when it runs:
  /// the latest value when coalescing, otherwise each one in order; counted in `counters`.
  @inlinable
  func schedule(
    _ value: Value,
    isActive: @escaping @Sendable () -> Bool,
    _ handler: @escaping @Sendable (Value) -> Void
  ) {
    if let latest {
      guard latest.offer(value) else { return }
      scheduler!.schedule {
        if let value = latest.take(), isActive() { handler(value) }
      }
      return
    }
    let counters = counters
    counters?.pending.add(1, ordering: .relaxed)
    scheduler!.schedule {
      counters?.pending.subtract(1, ordering: .relaxed)
      if isActive() { handler(value) }
    }
  }
}
