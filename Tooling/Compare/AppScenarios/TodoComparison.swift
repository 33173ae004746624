public import AppHarness
public import AppSupport
public import Foundation
public import TodoKit

/// The task list as the comparison drives it, each service on a new SQLite file: RxTodo's
/// basics, and undo and redo (the same scenarios as `TodoScenarioTests`).
public struct TodoComparison: ComparedApp {
  /// A task list scenario.
  public typealias TodoScenario = Scenario<TodoIntent, TodoState>
  /// One step of a task list scenario.
  public typealias Step = TodoScenario.Step

  /// Creates the task list's comparison.
  public init() {}

  /// "Todo".
  public var name: String { "Todo" }

  /// `Apps/Todo/Core/StoreTodo.swift`, `ReactorTodo.swift`, `FeedbackTodo.swift`.
  public var implementationFiles: [Architecture: [String]] {
    [
      .store: ["Apps/Todo/Core/StoreTodo.swift"],
      .reactor: ["Apps/Todo/Core/ReactorTodo.swift"],
      .feedback: ["Apps/Todo/Core/FeedbackTodo.swift"],
    ]
  }

  /// A task list on a new database file in `directory`.
  public func makeService(
    _ architecture: Architecture,
    in directory: URL
  ) async throws -> any AppService<TodoIntent, TodoState> {
    let file = directory.appendingPathComponent("todo-\(UUID().uuidString).sqlite")
    return makeTodo(architecture, database: try TodoDatabase(path: file.path))
  }

  /// RxTodo's basics, and undo and redo.
  public func scenarios(in directory: URL) -> [Scenario<TodoIntent, TodoState>] {
    [Self.basics, Self.undoAndRedo]
  }

  /// Sends an intent and waits until its write has finished.
  static func write(_ intent: TodoIntent) -> [Step] {
    [.send(intent), .await("written: \(intent)") { $0.isIdle }]
  }

  static func titles(_ state: TodoState) -> [String] { state.tasks.map(\.title) }

  /// `scenario`, waiting after each intent until the service has handled it.
  public static func handlingEachIntent(_ scenario: TodoScenario) -> TodoScenario {
    var steps: [Step] = []
    var sent = 0
    for step in scenario.steps {
      steps.append(step)
      if case .send = step {
        sent += 1
        let count = sent
        steps.append(.await("intent \(count) handled") { $0.intentsHandled >= count })
      }
    }
    return TodoScenario(scenario.name, timeout: scenario.timeout, steps: steps)
  }

  /// Add, edit, mark done, move and delete.
  public static let basics = handlingEachIntent(
    TodoScenario("add, edit, mark done, move and delete") {
      write(.add(title: "Buy milk"))
      write(.add(title: "  Walk the dog "))
      write(.add(title: "Write report"))
      write(.toggle(id: 1))
      write(.setDone(id: 3, true))
      write(.setDone(id: 3, false))
      write(.edit(id: 2, title: "Walk the cat"))
      write(.move(id: 3, to: 0))
      Step.expect("report first, milk done") {
        titles($0) == ["Write report", "Buy milk", "Walk the cat"]
          && $0.tasks.map(\.done) == [false, true, false]
      }
      write(.delete(id: 1))
      Step.expect("milk gone") { titles($0) == ["Write report", "Walk the cat"] }
    }
  )

  /// Undo and redo of edits, adds, deletes and an import.
  public static let undoAndRedo = handlingEachIntent(
    TodoScenario("undo and redo") {
      Step.send(.undo)
      write(.add(title: "a"))
      write(.add(title: "b"))
      write(.edit(id: 1, title: "A"))
      write(.undo)
      write(.undo)
      write(.redo)
      Step.expect("add redone, same id") { titles($0) == ["a", "b"] && $0.tasks[1].id == 2 }
      write(.delete(id: 1))
      write(.undo)
      write(.importTasks([TodoDraft(title: "d", done: true), TodoDraft(title: "e")]))
      write(.undo)
      Step.expect("an import is one undo step") { titles($0) == ["a", "b"] }
    }
  )
}
