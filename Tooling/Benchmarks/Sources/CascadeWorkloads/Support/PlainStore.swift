/// The `plain` column: the smallest store an app could write for itself, without the library.
///
/// A state, a reducer and an array of subscriber closures: `send` reduces in place and calls
/// every subscriber with the new state; a selecting subscriber skips repeats. Single-threaded,
/// no locks, no queue, no reentrancy handling, no commands: the floor the `Store` column is
/// compared with in W1–W4. It lives in the benchmark module, so the optimizer specializes it for
/// each workload's types, as it would an app's own code; the reducer and subscribers it calls
/// are the same opaque closure values the `Store` column gets.
final class PlainStore<State, Action> {
  /// The current state.
  private(set) var state: State
  private let reducer: (inout State, Action) -> Void
  private var subscribers: [(State) -> Void] = []

  init(initialState: State, reducer: @escaping (inout State, Action) -> Void) {
    state = initialState
    self.reducer = reducer
  }

  /// Reduces `action` into the state in place, then calls every subscriber.
  func send(_ action: Action) {
    reducer(&state, action)
    for subscriber in subscribers { subscriber(state) }
  }

  /// Calls `handler` with the state now and after every action.
  func subscribe(_ handler: @escaping (State) -> Void) {
    subscribers.append(handler)
    handler(state)
  }

  /// Calls `handler` with the selection now and after every action that changed it.
  func subscribe<Selected: Equatable>(
    select: @escaping (State) -> Selected,
    _ handler: @escaping (Selected) -> Void
  ) {
    var last = select(state)
    subscribers.append { state in
      let selected = select(state)
      guard selected != last else { return }
      last = selected
      handler(selected)
    }
    handler(last)
  }
}
