import AppSupport
import Foundation
import TodoCore

/// A fresh directory for one test's files, removed afterwards.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("todo-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try await body(directory)
}

/// A service on the database at `path`.
func service(
  _ architecture: Architecture,
  path: String
) throws -> any AppService<TodoIntent, TodoState> {
  makeTodo(architecture, database: try TodoDatabase(path: path))
}

extension AppService where Intent == TodoIntent, State == TodoState {
  /// Performs `intents` one at a time and returns the last state.
  @discardableResult
  func perform(_ first: TodoIntent, _ more: TodoIntent...) async throws -> TodoState {
    var state = try await perform(first)
    for intent in more { state = try await perform(intent) }
    return state
  }
}

extension TodoState {
  /// The titles, in list order.
  var titles: [String] { tasks.map(\.title) }
}

/// The bytes of a file, to show it was left untouched.
func contents(of path: String) throws -> Data {
  try Data(contentsOf: URL(fileURLWithPath: path))
}
