package import CascadeStore

extension FeedbackLoop {
  /// The loop's store: what CascadeTesting's `TestStore` watches.
  package var testedStore: Store<State, Event> { store }

  /// Sends `event` like ``send(_:)``, tagged with `mark` (see `Store.send(_:mark:)`).
  package func send(_ event: Event, mark: UInt64) {
    store.send(event, mark: mark)
  }
}
