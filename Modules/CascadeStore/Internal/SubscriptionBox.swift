import CascadeStreams
import Synchronization

/// One subscription of a store, type-erased over what it selects.
///
/// The store's processing thread calls ``notify(_:)`` with each new state; only that thread
/// touches the subscription's last selection, one input at a time.
class AnySubscriptionBox<State: Sendable>: @unchecked Sendable {
  // Safety: `active` is atomic; subclasses' `last` is only touched by the store's processing,
  // which handles one input at a time (the store's processing token orders it).
  let active = Atomic<Bool>(true)
  /// The subscriber object this subscription serves, for `remove(subscriber:)`.
  let owner: ObjectIdentifier?

  init(owner: ObjectIdentifier? = nil) {
    self.owner = owner
    Resources.increment()
  }

  var isActive: Bool { active.load(ordering: .acquiring) }

  /// Ends the subscription; `true` for the call that ended it.
  @discardableResult
  func cancel() -> Bool {
    guard active.exchange(false, ordering: .acquiringAndReleasing) else { return false }
    Resources.decrement()
    return true
  }

  /// Whether the subscriber is gone (a weak subscriber that was released).
  var isOrphaned: Bool { false }

  /// Delivers `state` (or its selection) if it changed, on the subscription's delivery.
  func notify(_ state: State) {}

  /// Delivers the initial state, whatever the last selection.
  func notifyInitial(_ state: State) {}

  /// Called once when the store closes with this subscription live.
  func storeDidClose() {}
}

/// A subscription that selects `Selected` from the state and delivers it to a handler.
final class SubscriptionBox<State: Sendable, Selected: Sendable>: AnySubscriptionBox<State>,
  @unchecked Sendable
{
  // Safety: see AnySubscriptionBox; `last` is only touched by the store's processing.
  private let select: @Sendable (State) -> Selected
  private let isDuplicate: (@Sendable (Selected, Selected) -> Bool)?
  private let delivery: Delivery
  private let handler: @Sendable (Selected) -> Void
  private let orphaned: @Sendable () -> Bool
  private let onClose: (@Sendable () -> Void)?
  private var last: Selected?

  init(
    select: @escaping @Sendable (State) -> Selected,
    isDuplicate: (@Sendable (Selected, Selected) -> Bool)?,
    delivery: Delivery,
    owner: ObjectIdentifier? = nil,
    orphaned: @escaping @Sendable () -> Bool = { false },
    onClose: (@Sendable () -> Void)? = nil,
    handler: @escaping @Sendable (Selected) -> Void
  ) {
    self.onClose = onClose
    self.select = select
    self.isDuplicate = isDuplicate
    self.delivery = delivery
    self.orphaned = orphaned
    self.handler = handler
    super.init(owner: owner)
  }

  override var isOrphaned: Bool { orphaned() }

  override func storeDidClose() { onClose?() }

  override func notify(_ state: State) {
    let selected = select(state)
    if let isDuplicate, let last, isDuplicate(last, selected) { return }
    last = selected
    deliver(selected)
  }

  override func notifyInitial(_ state: State) {
    let selected = select(state)
    last = selected
    deliver(selected)
  }

  private func deliver(_ selected: Selected) {
    switch delivery {
    case .synchronous:
      if isActive { handler(selected) }
    case .scheduler(let scheduler):
      scheduler.schedule { [self] in
        if isActive { handler(selected) }
      }
    }
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
