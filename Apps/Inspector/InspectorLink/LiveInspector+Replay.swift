public import CascadeFeedback
public import CascadeReactor
public import CascadeStore

/// "Replay to here" for each architecture: a fresh store, reactor or feedback loop, made as the
/// app's started, is given the inputs of the steps up to the one chosen through its `replay`
/// (replay mode: the recorded states, and no effect), and its state is the answer.
extension LiveInspector {
  /// Replays into a fresh store made by `make`.
  ///
  /// ```swift
  /// inspector.replays(live) { StoreTodo(writes: NoTodoWrites(), initialState: start).store }
  /// ```
  public func replays<State: Encodable & Sendable, Action: Sendable>(
    _ inputs: LiveInputs<Action, State>,
    intoFresh make: @escaping @Sendable () -> Store<State, Action>
  ) {
    onReplay { steps in
      let store = make()
      await store.replay(inputs.inputs(ofFirst: steps).map(\.input))
      return store.state
    }
  }

  /// Replays into a fresh feedback loop made by `make`.
  public func replays<State: Encodable & Sendable, Event: Sendable>(
    _ inputs: LiveInputs<Event, State>,
    intoFresh make: @escaping @Sendable () -> FeedbackLoop<State, Event>
  ) {
    onReplay { steps in
      let loop = make()
      await loop.replay(inputs.inputs(ofFirst: steps).map(\.input))
      return loop.currentState
    }
  }

  /// Replays into a fresh reactor made by `make`: each recorded mutation in its action's place,
  /// without calling `mutate(action:)`.
  public func replays<R: Reactor>(
    _ inputs: LiveInputs<R.Action, R.State>,
    intoFresh make: @escaping @Sendable () -> R
  ) where R.State: Encodable {
    onReplay { steps in
      let reactor = make()
      await reactor.replay(
        inputs.inputs(ofFirst: steps).map { recorded in
          guard let mutation = recorded.mutation as? R.Mutation else {
            return .action(recorded.input)
          }
          return .mutation(mutation, cause: recorded.input)
        }
      )
      return reactor.currentState
    }
  }
}
