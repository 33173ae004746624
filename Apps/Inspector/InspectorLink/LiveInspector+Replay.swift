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
  /// With `restore`, which makes a fresh container from a state, the inputs of the oldest steps
  /// are let go as their messages are (``stepLimit``): a replay starts from the state after the
  /// steps let go, in a container `restore` made, and reaches the steps after (a request for an
  /// earlier one is answered with an error). Without it, every input is kept, and a replay
  /// starts where the app did.
  ///
  /// ```swift
  /// inspector.replays(live) { StoreTodo(writes: NoTodoWrites(), initialState: start).store }
  /// ```
  public func replays<Container: ArchitectureContainer>(
    _ inputs: LiveInputs<Container.Input, Container.State>,
    intoFresh make: @escaping @Sendable () -> Container,
    restoring restore: (@Sendable (Container.State) -> Container)? = nil
  ) where Container.State: Encodable {
    if restore != nil { inputs.keepInputs(atLeast: stepLimit) }
    // Weakly: the middleware holds the endpoint, so a strong reference here kept both, with
    // every step published and the middleware's thread, for as long as the process ran.
    onReplay { [weak inputs] steps in
      guard let inputs else { throw LiveReplayError.appGone }
      guard let (start, recorded) = inputs.replay(ofFirst: steps) else {
        throw LiveReplayError.letGo(first: inputs.firstReplayableStep)
      }
      let container = if let start, let restore { restore(start) } else { make() }
      await container.replay(recorded.map { ($0.input, $0.mutation) })
      return container.currentState
    }
  }
}

/// Why "replay to here" could not run.
enum LiveReplayError: Error, CustomStringConvertible {
  /// The architecture inspected, and its middleware with the inputs, are gone.
  case appGone
  /// The step's input was let go; a replay reaches the steps from `first` on.
  case letGo(first: Int)

  var description: String {
    switch self {
    case .appGone: "the app's inputs are gone"
    case .letGo(let first):
      "the inputs before step \(first) were let go: a replay reaches step \(first) and after"
    }
  }
}
