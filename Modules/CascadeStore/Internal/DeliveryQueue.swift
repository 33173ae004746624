public import CascadeStreams
import Synchronization

/// The values a subscription's scheduled delivery keeps waiting, and the one drain that hands
/// them over: the latest value only when coalescing (``Delivery/scheduler(_:)``), every value in
/// order otherwise (``Delivery/everyState(_:)``).
///
/// One drain is scheduled at a time and delivers what waits when it runs, so a burst costs one
/// scheduled job, not one per value. The first value offered — the subscription's initial state —
/// is never replaced: it is delivered first, then the latest of what followed, so a subscriber
/// always sees the state it subscribed to (ReactorKit's `state.skip(1)` idiom depends on it). Ending the subscription (``cancel()``) drops what waits at
/// once — the values are released and leave the backlog — instead of leaving them in the
/// scheduler's queue until it runs.
@usableFromInline
final class DeliveryQueue<Value: Sendable>: Sendable {
  private struct Waiting {
    /// The first value offered, until delivered: never coalesced away.
    var initial: Value?
    var offeredFirst = false
    var values = FIFO<Value>()
    var drainScheduled = false
    var cancelled = false
    /// Counts the drains scheduled, so that a drain's work item is kept only while it is the
    /// latest one.
    var drains = 0
    /// The work item of the drain scheduled, disposed of (taken out of the scheduler's queue)
    /// when the subscription ends first.
    var drainItem: (any Disposable)?
  }
  private let scheduler: any Scheduler
  private let coalescing: Bool
  private let counters: DeliveryCounters?
  private let waiting = LockedValue(Waiting())

  @usableFromInline
  init(scheduler: any Scheduler, coalescing: Bool, counters: DeliveryCounters?) {
    self.scheduler = scheduler
    self.coalescing = coalescing
    self.counters = counters
  }

  /// Queues `value` for `handler`, which the drain calls on the scheduler while `isActive`
  /// holds; when coalescing, `value` replaces the value waiting (counted as coalesced).
  @usableFromInline
  func offer(
    _ value: Value,
    isActive: @escaping @Sendable () -> Bool,
    _ handler: @escaping @Sendable (Value) -> Void
  ) {
    let (queued, replaced, drain) = waiting.withLock { waiting -> (Bool, Bool, Int?) in
      guard !waiting.cancelled else { return (false, false, nil) }
      var replaced = false
      if !waiting.offeredFirst {
        waiting.offeredFirst = true
        waiting.initial = value
      } else {
        if coalescing, !waiting.values.isEmpty {
          _ = waiting.values.popFirst()
          replaced = true
        }
        waiting.values.append(value)
      }
      if waiting.drainScheduled { return (true, replaced, nil) }
      waiting.drainScheduled = true
      waiting.drains &+= 1
      return (true, replaced, waiting.drains)
    }
    guard queued else { return }
    if replaced {
      counters?.coalesced.add(1, ordering: .relaxed)
    } else {
      counters?.pending.add(1, ordering: .relaxed)
    }
    guard let drain else { return }
    let item = scheduler.schedule { [self] in self.drain(isActive: isActive, handler) }
    let cancelled = waiting.withLock { waiting -> Bool in
      if waiting.cancelled { return true }
      if waiting.drainScheduled, waiting.drains == drain { waiting.drainItem = item }
      return false
    }
    if cancelled { item.dispose() }
  }

  private func drain(
    isActive: @Sendable () -> Bool,
    _ handler: @Sendable (Value) -> Void
  ) {
    while true {
      let next = waiting.withLock { waiting -> Value? in
        if !waiting.cancelled, let initial = waiting.initial {
          waiting.initial = nil
          return initial
        }
        guard !waiting.cancelled, let value = waiting.values.popFirst() else {
          waiting.drainScheduled = false
          waiting.drainItem = nil
          return nil
        }
        return value
      }
      guard let value = next else { return }
      counters?.pending.subtract(1, ordering: .relaxed)
      if isActive() { handler(value) }
    }
  }

  /// Drops what waits and accepts nothing more: the subscription has ended.
  @usableFromInline
  func cancel() {
    let (dropped, item) = waiting.withLock { waiting -> (Int, (any Disposable)?) in
      waiting.cancelled = true
      defer {
        waiting.initial = nil
        waiting.values = FIFO()
        waiting.drainItem = nil
      }
      return (waiting.values.count + (waiting.initial == nil ? 0 : 1), waiting.drainItem)
    }
    if dropped > 0 { counters?.pending.subtract(dropped, ordering: .relaxed) }
    item?.dispose()
  }
}

/// How a subscription hands values to a scheduler (``Delivery``), shared by whole-state
/// subscriptions (``SubscriptionBox``) and the subscription index (``ElementEntry``): decided once
/// at subscription, so no notification switches over `Delivery` (or copies its existential).
@usableFromInline
struct ScheduledDelivery<Value: Sendable>: Sendable {
  /// `nil` for synchronous delivery.
  @usableFromInline let queue: DeliveryQueue<Value>?

  @inlinable
  init(_ delivery: Delivery, counters: DeliveryCounters?) {
    switch delivery {
    case .synchronous:
      queue = nil
    case .scheduler(let target):
      queue = DeliveryQueue(scheduler: target, coalescing: true, counters: counters)
    case .everyState(let target):
      queue = DeliveryQueue(scheduler: target, coalescing: false, counters: counters)
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
    queue?.offer(value, isActive: isActive, handler)
  }

  /// Drops the values waiting: the subscription has ended.
  @inlinable
  func cancel() { queue?.cancel() }
}
