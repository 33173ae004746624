public import AppSupport
public import CascadeStore

/// "Replay to here" for each architecture: a fresh store, reactor or feedback loop, made as the
/// app's started, is given the inputs of the steps up to the one chosen through its `replay`
/// (replay mode: the recorded states, and no effect), and its state is the answer.
extension LiveInspector {
  /// Replays into a fresh container made by `make`: a store's actions, a loop's events, a
  /// reactor's actions with each recorded mutation in its action's place (without calling
  /// `mutate(action:)`), through `ArchitectureContainer.replay(_:)`.
  ///
  /// ```swift
  /// inspector.replays(live) { StoreTodo(writes: NoTodoWrites(), initialState: start).store }
  /// ```
  public func replays<Container: ArchitectureContainer>(
    _ inputs: LiveInputs<Container.Input, Container.State>,
    intoFresh make: @escaping @Sendable () -> Container
  ) where Container.State: Encodable {
    onReplay { steps in
      let container = make()
      await container.replay(inputs.inputs(ofFirst: steps).map { ($0.input, $0.mutation) })
      return container.currentState
    }
  }
}
