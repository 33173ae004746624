public import AppSupport

/// The task list service on `architecture`, over `database`, showing what it holds now.
///
/// ```swift
/// let todo = makeTodo(.feedback, database: try TodoDatabase(path: path))
/// todo.send(.add(title: "Buy milk"))
/// let state = try await todo.waitForState { $0.isIdle }
/// ```
public func makeTodo(
  _ architecture: Architecture,
  database: TodoDatabase
) -> any AppService<TodoIntent, TodoState> {
  TodoApp.service(
    architecture,
    TodoApp.Environment(writes: database, start: TodoState(loadingFrom: database))
  )
}

extension AppService where Intent == TodoIntent, State == TodoState {
  /// Sends `intent`, then waits until it has been handled and every write has finished, and
  /// returns that state.
  ///
  /// For a caller that sends one intent at a time: every intent it sent before must have been
  /// handled (as this function ensures).
  ///
  /// - Throws: ``AppServiceTimeout`` when that does not happen within `timeout`.
  @discardableResult
  public func perform(
    _ intent: TodoIntent,
    timeout: Duration = .seconds(30)
  ) async throws -> TodoState {
    let handled = currentState.intentsHandled + 1
    send(intent)
    return try await waitForState(timeout: timeout) {
      $0.intentsHandled >= handled && $0.isIdle
    }
  }
}
