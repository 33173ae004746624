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

/// A store's counts of its deliveries through schedulers (``Store/deliveryBacklog``,
/// ``Store/coalescedDeliveries``).
@usableFromInline
final class DeliveryCounters: Sendable {
  /// Deliveries scheduled and not yet run.
  @usableFromInline let pending = Atomic<Int>(0)
  /// States replaced by a newer one before their delivery ran.
  @usableFromInline let coalesced = Atomic<Int>(0)

  @usableFromInline
  init() {}
}
