public import CascadeStore
import CascadeStreams

/// Closes a reactor's store once the reactor is gone: what the store's step calls when its weak
/// reference to the reactor comes back `nil` (see `ReactorCore.build(_:)`).
///
/// Connected once, after the store is made and before any input reaches it; holds the store
/// weakly (the store's step holds this).
@usableFromInline
final class StoreCloser: Sendable {
  private let close = LockedValue<(@Sendable () -> Void)?>(nil)

  @usableFromInline
  init() {}

  /// Makes ``closeStore()`` close `store`.
  @usableFromInline
  func connect<State: Sendable, Input: Sendable>(_ store: Store<State, Input>) {
    close.withLock { $0 = { [weak store] in store?.close() } }
  }

  /// Closes the connected store, if it is still there.
  @usableFromInline
  func closeStore() {
    close.withLock { $0 }?()
  }
}
