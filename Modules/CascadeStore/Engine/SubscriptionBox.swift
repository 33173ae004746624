public import CascadeStreams
public import Synchronization

/// One subscription of a store.
///
/// What it selects and where it delivers is captured in `body`, a closure built by
/// ``make(select:isDuplicate:delivery:owner:orphaned:onClose:counters:handler:)`` — which is inlinable,
/// so the closure is specialized for the client's types and a notification costs no generic
/// metadata lookups. The store's processing thread calls ``notify(_:)`` with each new state; only
/// that thread touches the subscription's last selection, one input at a time.
@usableFromInline
final class SubscriptionBox<State: Sendable>: @unchecked Sendable {
  // Safety: `active` is atomic; `body`, `owner`, `orphaned` and `onClose` are immutable; the
  // last selection that `body` keeps is only touched by the store's processing, which handles
  // one input at a time.
  @usableFromInline let active = Atomic<Bool>(true)
  /// The subscriber object this subscription serves, for `remove(subscriber:)`.
  @usableFromInline let owner: ObjectIdentifier?
  /// Selects, compares with the last selection (unless `initial`), and delivers.
  @usableFromInline let body: @Sendable (SubscriptionBox<State>, State, _ initial: Bool) -> Void
  @usableFromInline let orphaned: (@Sendable () -> Bool)?
  @usableFromInline let onClose: (@Sendable () -> Void)?
  /// Drops the deliveries waiting on the subscription's scheduler, if it has one.
  @usableFromInline let endDelivery: (@Sendable () -> Void)?
  @usableFromInline let resource: Resources.Token

  @usableFromInline
  init(
    owner: ObjectIdentifier?,
    orphaned: (@Sendable () -> Bool)?,
    onClose: (@Sendable () -> Void)?,
    endDelivery: (@Sendable () -> Void)? = nil,
    body: @escaping @Sendable (SubscriptionBox<State>, State, Bool) -> Void
  ) {
    self.owner = owner
    self.orphaned = orphaned
    self.onClose = onClose
    self.endDelivery = endDelivery
    self.body = body
    resource = Resources.increment()
  }

  /// A subscription that selects `Selected` from each state, skips it if `isDuplicate` says it
  /// equals the previous one, and delivers it to `handler` through `delivery`.
  @inlinable
  static func make<Selected: Sendable>(
    select: @escaping @Sendable (State) -> Selected,
    isDuplicate: (@Sendable (Selected, Selected) -> Bool)?,
    delivery: Delivery,
    owner: ObjectIdentifier? = nil,
    orphaned: (@Sendable () -> Bool)? = nil,
    onClose: (@Sendable () -> Void)? = nil,
    counters: DeliveryCounters? = nil,
    handler: @escaping @Sendable (Selected) -> Void
  ) -> SubscriptionBox<State> {
    let last = LastSelection<Selected>()
    let delivery = ScheduledDelivery<Selected>(delivery, counters: counters)
    return SubscriptionBox(
      owner: owner,
      orphaned: orphaned,
      onClose: onClose,
      endDelivery: delivery.end
    ) {
      box,
      state,
      initial in
      let selected = select(state)
      // Only a subscription that skips repeats keeps its last selection: keeping it otherwise
      // would hold a reference to the state's storage and make the next in-place reduction copy
      // it.
      if let isDuplicate {
        if !initial, let previous = last.value, isDuplicate(previous, selected) { return }
        last.value = selected
      }
      box.hand(selected, through: delivery, to: handler)
    }
  }

  /// A subscription that delivers each whole state to `handler` through `delivery` (`states`).
  ///
  /// The state goes on as the engine hands it over, borrowed: a selection that returns it
  /// (`select: { $0 }`) copied it for each subscriber, a retain of each reference it holds and a
  /// copy of its inline part (`cascade-inspector-bench live-rpg 100000 feedback`, under perf:
  /// 4 % of the feedback game's time, in `memmove`, for its 232-byte state).
  @inlinable
  static func make(
    delivery: Delivery,
    owner: ObjectIdentifier? = nil,
    orphaned: (@Sendable () -> Bool)? = nil,
    onClose: (@Sendable () -> Void)? = nil,
    counters: DeliveryCounters? = nil,
    handler: @escaping @Sendable (State) -> Void
  ) -> SubscriptionBox<State> {
    let delivery = ScheduledDelivery<State>(delivery, counters: counters)
    return SubscriptionBox(
      owner: owner,
      orphaned: orphaned,
      onClose: onClose,
      endDelivery: delivery.end
    ) { box, state, _ in box.hand(state, through: delivery, to: handler) }
  }

  /// Hands `value` to `handler` while the subscription is active: at once, on this thread, for a
  /// synchronous delivery; else through the delivery's scheduler, if still active when it runs.
  @inlinable @inline(__always)
  func hand<Value: Sendable>(
    _ value: Value,
    through delivery: ScheduledDelivery<Value>,
    to handler: @escaping @Sendable (Value) -> Void
  ) {
    if delivery.isSynchronous {
      if isActive { handler(value) }
      return
    }
    delivery.schedule(value, isActive: { [self] in isActive }, handler)
  }

  @inlinable
  var isActive: Bool { active.load(ordering: .acquiring) }

  /// Whether the subscriber is gone (a weak subscriber that was released).
  @inlinable
  var isOrphaned: Bool { orphaned?() ?? false }

  /// Ends the subscription, dropping the deliveries waiting; `true` for the call that ended it.
  @usableFromInline
  @discardableResult
  func cancel() -> Bool {
    guard active.exchange(false, ordering: .acquiringAndReleasing) else { return false }
    endDelivery?()
    Resources.decrement(resource)
    return true
  }

  /// Delivers `state` (or its selection) if it changed.
  @inlinable
  func notify(_ state: State) { body(self, state, false) }

  /// Delivers the initial state, whatever the last selection.
  @usableFromInline
  func notifyInitial(_ state: State) { body(self, state, true) }

  /// Called once when the store closes with this subscription live.
  @usableFromInline
  func storeDidClose() { onClose?() }
}

/// The last selection a subscription delivered.
///
/// The value sits behind a pointer so that reading and writing it costs no dynamic exclusivity
/// check on the notification path: as a class's stored `var`, W2's selector form (1,000
/// subscriptions that skip repeats) costs 34% more instructions per input (callgrind: 322,626
/// against 240,544). `StoreConcurrencyTests.selectionsThatSkipRepeatsSeeEachChangeOnceInOrder`
/// runs it from 8 threads under ThreadSanitizer.
@usableFromInline
final class LastSelection<Value>: @unchecked Sendable {
  // Safety: only touched from a subscription's `body`, which the store's processing calls one
  // input at a time.
  @usableFromInline let pointer: UnsafeMutablePointer<Value?>

  @inlinable init() {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: nil)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  @inlinable var value: Value? {
    get { pointer.pointee }
    set { pointer.pointee = newValue }
  }
}

/// A weak reference that may cross threads.
///
/// Loading a weak reference is atomic, so checking it for `nil` from any thread is safe; the
/// object itself is only used on the main actor (subscribers are main-actor objects).
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
  // Safety: `object` is a weak reference, loaded atomically; it is only dereferenced on the main
  // actor, the isolation of the objects stored here.
  weak var object: Object?

  init(_ object: Object) {
    self.object = object
  }
}
