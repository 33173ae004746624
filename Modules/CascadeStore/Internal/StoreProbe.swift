import CascadeStreams

/// An observer of everything a store reduces and every command task it runs.
///
/// The hook CascadeTesting's `TestStore` is built on: package API, not public. The store calls it without holding its lock. `reduced` and `commandStarted` run on the thread
/// processing the store's inputs, in processing order; `commandFinished` runs on the command's
/// task. Installing a probe makes the store copy its state before each action, which a store
/// without one never does.
@usableFromInline
package struct StoreProbe<State: Sendable, Action: Sendable>: Sendable {
  /// An action was reduced.
  ///
  /// It receives the action (after middlewares' interception), the mark it was sent with through
  /// ``Store/send(_:mark:)`` (`nil` for every other send), and the states before and after it.
  /// Called before middlewares process the action and subscribers are notified.
  @usableFromInline package var reduced:
    @Sendable (_ action: Action, _ mark: UInt64?, _ before: State, _ after: State) -> Void
  /// An asynchronous command started as task `task`, named `name`.
  @usableFromInline package var commandStarted: @Sendable (_ task: Int, _ name: String) -> Void
  /// The task of an asynchronous command ended: finished, failed or cancelled.
  @usableFromInline package var commandFinished: @Sendable (_ task: Int) -> Void

  package init(
    reduced: @escaping @Sendable (Action, UInt64?, State, State) -> Void,
    commandStarted: @escaping @Sendable (Int, String) -> Void,
    commandFinished: @escaping @Sendable (Int) -> Void
  ) {
    self.reduced = reduced
    self.commandStarted = commandStarted
    self.commandFinished = commandFinished
  }
}

extension Store {
  /// Installs `probe`, replacing any earlier one; it sees what the store does from now on.
  package func install(probe: StoreProbe<State, Action>) {
    engine.storage.withLock { $0.probe = probe }
  }

  /// Sends `action` like ``send(_:)`` from outside any command, tagged with `mark` so that the
  /// probe can tell it apart from the actions that commands and middlewares send.
  package func send(_ action: Action, mark: UInt64) {
    engine.submit(.action(action, origin: nil, mark: mark))
  }
}
