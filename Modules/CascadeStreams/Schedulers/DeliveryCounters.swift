public import Synchronization

/// Counts of the values an architecture delivers through schedulers: how many wait now, and how
/// many a newer value replaced (`Store.deliveryBacklog`, `Store.coalescedDeliveries`, and the
/// same on reactors and feedback loops).
@usableFromInline
package final class DeliveryCounters: Sendable {
  /// Deliveries scheduled and not yet run.
  @usableFromInline package let pending = Atomic<Int>(0)
  /// Values replaced by a newer one before their delivery ran.
  @usableFromInline package let coalesced = Atomic<Int>(0)

  @inlinable
  package init() {}
}
