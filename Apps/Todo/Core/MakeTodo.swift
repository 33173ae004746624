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
  switch architecture {
  case .store: StoreTodo(database: database)
  case .reactor: ReactorTodo(database: database)
  case .feedback: FeedbackTodo(database: database)
  }
}
