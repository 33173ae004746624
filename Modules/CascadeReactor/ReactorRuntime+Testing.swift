package import CascadeStore

extension Reactor {
  /// The store of the reactor's running machinery, started on first use: what CascadeTesting's
  /// `TestStore` watches.
  package var testedStore: Store<State, ReactorInput<Action, Mutation>> {
    runtime.core(for: self).store
  }

  /// Whether the reactor's `transform(action:)` reworks actions: then actions reach its store
  /// through that stream rather than straight from `send`.
  package var reworksActions: Bool {
    runtime.core(for: self).actionInput != nil
  }
}
