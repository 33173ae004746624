public import Synchronization

/// Where a drain of a ``CoalescingDelivery`` hands what waited: the values, then the ending.
@usableFromInline
package struct DeliveryTarget<Value: Sendable, Ending: Sendable>: Sendable {
  /// Checked before each callout; `nil` when the receiver checks for itself.
  @usableFromInline let isActive: (@Sendable () -> Bool)?
  @usableFromInline let value: @Sendable (Value) -> Void
  /// `nil` for a delivery that never ends (an `Ending` of `Never`).
  @usableFromInline let ending: (@Sendable (Ending) -> Void)?

  @inlinable
  package init(
    isActive: (@Sendable () -> Bool)?,
    value: @escaping @Sendable (Value) -> Void,
    ending: (@Sendable (Ending) -> Void)?
  ) {
    self.isActive = isActive
    self.value = value
    self.ending = ending
  }
}

extension DeliveryTarget where Ending == Never {
  /// A target for values only: `value` is called while `isActive` holds.
  @inlinable
  package init(
    isActive: @escaping @Sendable () -> Bool,
    value: @escaping @Sendable (Value) -> Void
  ) {
    self.init(isActive: isActive, value: value, ending: nil)
  }
}

/// The scheduled delivery behind `observe(on:)`, `observeLatest(on:)` and a store subscription
/// on a scheduler: values wait here and one drain at a time hands them over on the scheduler.
///
/// - **Coalescing or not:** when `coalescing`, a value that arrives while another waits replaces
///   it (counted as coalesced), so at most one waits; otherwise every value waits, in order.
/// - **One drain at a time:** a drain is scheduled only when none is scheduled or running, and it
///   delivers everything that waits when it runs, so a burst costs one scheduled job and
///   deliveries never overlap, even on a concurrent scheduler.
/// - **The first value kept:** with `keepsFirst`, the first value offered — a state stream's state
///   on subscription — is never replaced: it is delivered first, then the latest of what followed.
/// - **The ending last:** an ending (a stream's completion or failure) offered with
///   ``end(with:to:)`` is never dropped or replaced: it is delivered after every value waiting.
/// - **Cancel:** ``cancel()`` drops what waits at once (the values leave the backlog and are
///   released), disposes the drain scheduled, and refuses what is offered afterwards.
///
/// ``DeliveryCounters/pending`` counts the values waiting, ``DeliveryCounters/coalesced`` those
/// replaced. No lock is held while calling the target or releasing a value (whose `deinit` may be
/// user code); the waiting values live in a reused ring buffer, so offering a value allocates
/// nothing once it has grown.
@usableFromInline
package final class CoalescingDelivery<Value: Sendable, Ending: Sendable>: Sendable {
  @usableFromInline
  struct Waiting: Sendable {
    /// With `keepsFirst`: the first value offered, until delivered.
    @usableFromInline var first: Value?
    @usableFromInline var offeredFirst = false
    @usableFromInline var values = FIFO<Value>()
    @usableFromInline var ending: Ending?
    /// Whether an ending was offered: nothing is accepted after it.
    @usableFromInline var ended = false
    /// Where the drain scheduled delivers; `nil` when no drain is scheduled or running.
    @usableFromInline var target: DeliveryTarget<Value, Ending>?
    @usableFromInline var cancelled = false
    /// Counts the drains scheduled, so that a drain's work item is kept only while it is the
    /// latest one.
    @usableFromInline var drains = 0
    /// The work item of the drain scheduled, disposed of (taken out of the scheduler's queue)
    /// when cancelled first.
    @usableFromInline var drainItem: (any Disposable)?

    @usableFromInline init() {}

    /// Claims the drain for `target`: the number of the drain to schedule, or `nil` when one is
    /// already scheduled or running (it delivers what was just queued too).
    @inlinable
    mutating func claimDrain(_ target: DeliveryTarget<Value, Ending>) -> Int? {
      guard self.target == nil else { return nil }
      self.target = target
      drains &+= 1
      return drains
    }
  }

  /// What a drain takes next.
  @usableFromInline
  enum Next {
    case value(Value)
    case ending(Ending)
  }

  @usableFromInline let scheduler: any Scheduler
  @usableFromInline let coalescing: Bool
  @usableFromInline let keepsFirst: Bool
  @usableFromInline let counters: DeliveryCounters?
  @usableFromInline let waiting = LockedValue(Waiting())

  /// A delivery on `scheduler`, coalescing or not, counted in `counters`.
  @usableFromInline
  package init(
    scheduler: any Scheduler,
    coalescing: Bool,
    keepsFirst: Bool,
    counters: DeliveryCounters?
  ) {
    self.scheduler = scheduler
    self.coalescing = coalescing
    self.keepsFirst = keepsFirst
    self.counters = counters
  }

  /// Queues `value` for `target`, replacing the value waiting when coalescing.
  ///
  /// `target` is where the drain this schedules, if none is scheduled, delivers. Ignored once
  /// cancelled or ended.
  @inlinable
  package func offer(_ value: Value, to target: DeliveryTarget<Value, Ending>) {
    let (queued, replaced, drain) = waiting.withLock { waiting -> (Bool, Value?, Int?) in
      guard !waiting.cancelled, !waiting.ended else { return (false, nil, nil) }
      var replaced: Value?
      if keepsFirst, !waiting.offeredFirst {
        waiting.offeredFirst = true
        waiting.first = value
      } else {
        // Taken out, to be released once the lock is given up.
        if coalescing, !waiting.values.isEmpty { replaced = waiting.values.removeFirst() }
        waiting.values.append(value)
      }
      return (true, replaced, waiting.claimDrain(target))
    }
    guard queued else { return }
    if replaced != nil {
      counters?.coalesced.add(1, ordering: .relaxed)
    } else {
      counters?.pending.add(1, ordering: .relaxed)
    }
    if let drain { schedule(drain) }
  }

  /// Queues `ending` for `target`, to be delivered after every value waiting.
  ///
  /// Nothing is accepted afterwards. Ignored once cancelled or ended.
  @inlinable
  package func end(with ending: Ending, to target: DeliveryTarget<Value, Ending>) {
    let drain = waiting.withLock { waiting -> Int? in
      guard !waiting.cancelled, !waiting.ended else { return nil }
      waiting.ended = true
      waiting.ending = ending
      return waiting.claimDrain(target)
    }
    if let drain { schedule(drain) }
  }

  @inlinable
  func schedule(_ drain: Int) {
    let item = scheduler.schedule { [self] in self.drain() }
    let cancelled = waiting.withLock { waiting -> Bool in
      if waiting.cancelled { return true }
      // A scheduler that ran the drain at once has finished it: nothing to keep.
      if waiting.target != nil, waiting.drains == drain { waiting.drainItem = item }
      return false
    }
    if cancelled { item.dispose() }
  }

  @inlinable
  func drain() {
    guard let target = waiting.withLock({ $0.target }) else { return }
    while true {
      let next = waiting.withLock { waiting -> Next? in
        if !waiting.cancelled {
          if let first = waiting.first.take() { return .value(first) }
          if !waiting.values.isEmpty { return .value(waiting.values.removeFirst()) }
          if let ending = waiting.ending.take() { return .ending(ending) }
        }
        waiting.target = nil
        waiting.drainItem = nil
        return nil
      }
      switch next {
      case nil:
        return
      case .value(let value):
        counters?.pending.subtract(1, ordering: .relaxed)
        if target.isActive?() ?? true { target.value(value) }
      case .ending(let ending):
        if let deliver = target.ending, target.isActive?() ?? true { deliver(ending) }
      }
    }
  }

  /// Drops what waits, disposes the drain scheduled and accepts nothing more.
  @usableFromInline
  package func cancel() {
    typealias Released = (Value?, FIFO<Value>, Ending?, DeliveryTarget<Value, Ending>?)
    let (dropped, item, released) = waiting.withLock {
      waiting -> (Int, (any Disposable)?, Released) in
      waiting.cancelled = true
      let dropped = waiting.values.count + (waiting.first == nil ? 0 : 1)
      // Taken out, to be released once the lock is given up.
      var values = FIFO<Value>()
      swap(&values, &waiting.values)
      let released = (waiting.first.take(), values, waiting.ending.take(), waiting.target.take())
      return (dropped, waiting.drainItem.take(), released)
    }
    withExtendedLifetime(released) {}
    if dropped > 0 { counters?.pending.subtract(dropped, ordering: .relaxed) }
    item?.dispose()
  }
}
