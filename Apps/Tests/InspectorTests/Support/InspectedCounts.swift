import AppSupport
import CascadeStore
import InspectorLink
import RPGCore

/// A count, the state of the stores the live endpoint's tests inspect.
struct LiveCount: Codable, Sendable, Equatable {
  var value = 0
}

/// An endpoint for the count stores of the tests, keeping `stepLimit` steps.
func countInspector(stepLimit: Int = LiveInspector.defaultStepLimit) -> LiveInspector {
  LiveInspector(app: "test", architecture: .store, command: "count", stepLimit: stepLimit)
}

/// A store adding its actions to a ``LiveCount``, inspected by `inspector`: its middleware, and
/// "replay to here" into a fresh store, started from a state kept when `restoring`.
func inspectedCountStore(
  _ inspector: LiveInspector,
  restoring: Bool = false
) -> (store: Store<LiveCount, Int>, inputs: LiveInputs<Int, LiveCount>) {
  let inputs: LiveInputs<Int, LiveCount> = inspector.inputs(of: LiveCount.self, kind: .action)
  let add: @Sendable (inout LiveCount, Int) -> Void = { state, action in state.value += action }
  var restore: (@Sendable (LiveCount) -> Store<LiveCount, Int>)?
  if restoring { restore = { start in Store(initialState: start, reducer: add) } }
  inspector.replays(
    inputs,
    intoFresh: { Store(initialState: LiveCount(), reducer: add) },
    restoring: restore
  )
  return (Store(initialState: LiveCount(), middlewares: [inputs], reducer: add), inputs)
}

/// The game on `architecture`, inspected by `inspector`, saving in `directory`, its session's
/// service.
func inspectedGame(
  _ architecture: Architecture,
  _ inspector: LiveInspector,
  in directory: TemporaryDirectory
) -> any AppService<GameIntent, GameState> {
  makeGameSession(
    architecture,
    saveFile: directory.file("save.json"),
    log: { _ in },
    command: "test",
    inspector: inspector
  ).service
}
