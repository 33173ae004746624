/// An object that listens for state updates, usually a view controller: the "Reactor"
/// pattern's `Subscriber`.
///
/// Subscribers live on the main actor and receive updates there. The store holds them weakly:
/// a subscriber that is released is dropped at the next update without a call to remove it.
///
/// ```swift
/// @MainActor
/// final class PlayerViewController: Subscriber {
///   var core = App.sharedCore
///   var levelText = ""
///
///   func viewDidAppear() { core.add(subscriber: self) }
///   func viewDidDisappear() { core.remove(subscriber: self) }
///   func didPressLevelUp() { core.fire(event: LevelUp()) }
///
///   func update(with state: RPGState) {
///     levelText = String(state.player.level)
///   }
/// }
/// ```
@MainActor
public protocol Subscriber<StoreState>: AnyObject {
  /// The state (or the selected part of it) the subscriber receives.
  associatedtype StoreState: Sendable

  /// Receives the current state on subscription, then each change.
  func update(with state: StoreState)
}
