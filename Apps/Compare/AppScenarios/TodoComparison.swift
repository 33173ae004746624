public import AppHarness
public import AppSupport
public import Foundation
public import TodoCore

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

  /// `Apps/Todo/TodoCore/StoreTodo.swift`, `ReactorTodo.swift`, `FeedbackTodo.swift`.
  public var implementationFiles: [Architecture: [String]] {
    [
      .store: ["Apps/Todo/TodoCore/StoreTodo.swift"],
      .reactor: ["Apps/Todo/TodoCore/ReactorTodo.swift"],
      .feedback: ["Apps/Todo/TodoCore/FeedbackTodo.swift"],
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

  /// RxTodo's basics, and undo and redo, each waiting after each intent until it is handled.
  public func scenarios(in directory: URL) -> [Scenario<TodoIntent, TodoState>] {
    [Self.handlingEachIntent(Self.basics), Self.handlingEachIntent(Self.undoAndRedo)]
  }

  /// Sends an intent and waits until its write has finished.
  static func write(_ intent: TodoIntent) -> [Step] {
    [.send(intent), .await("written: \(intent)") { $0.isIdle }]
  }

  static func titles(_ state: TodoState) -> [String] { state.tasks.map(\.title) }

  /// `scenario`, waiting after each intent until the service has handled it.
  ///
  /// `send` returns before the intent is handled when another thread (a finished write) is
  /// processing the service's inputs; a step after it must not see the state from before it.
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

  /// Add, edit, mark done, move and delete (RxTodo's basics); run it through
  /// ``handlingEachIntent(_:)``.
  public static let basics = TodoScenario("add, edit, mark done, move and delete") {
    write(.add(title: "Buy milk"))
    write(.add(title: "  Walk the dog "))
    write(.add(title: "Write report"))
    Step.expect("three tasks, ids 1 to 3, titles trimmed") {
      titles($0) == ["Buy milk", "Walk the dog", "Write report"]
        && $0.tasks.map(\.id) == [1, 2, 3] && $0.tasks.map(\.position) == [0, 1, 2]
    }
    write(.toggle(id: 1))
    write(.setDone(id: 3, true))
    write(.setDone(id: 3, false))
    write(.edit(id: 2, title: "Walk the cat"))
    write(.move(id: 3, to: 0))
    Step.expect("report first, milk done") {
      titles($0) == ["Write report", "Buy milk", "Walk the cat"]
        && $0.tasks.map(\.done) == [false, true, false]
        && $0.tasks.map(\.position) == [0, 1, 2]
    }
    write(.delete(id: 1))
    Step.expect("milk gone, positions closed") {
      titles($0) == ["Write report", "Walk the cat"] && $0.tasks.map(\.position) == [0, 1]
        && $0.canUndo && !$0.canRedo && $0.lastError == nil
    }
  }

  /// Undo and redo of edits, adds, deletes and an import; run it through
  /// ``handlingEachIntent(_:)``.
  public static let undoAndRedo = TodoScenario("undo and redo") {
    Step.send(.undo)
    Step.expect("nothing to undo yet") { $0.lastError == .nothingToUndo && $0.isIdle }
    write(.add(title: "a"))
    write(.add(title: "b"))
    write(.edit(id: 1, title: "A"))
    write(.undo)
    Step.expect("edit undone") { titles($0) == ["a", "b"] && $0.canRedo && $0.canUndo }
    write(.undo)
    Step.expect("add undone") { titles($0) == ["a"] }
    write(.redo)
    Step.expect("add redone, same id") { titles($0) == ["a", "b"] && $0.tasks[1].id == 2 }
    write(.delete(id: 1))
    Step.expect("a new change clears redo") { titles($0) == ["b"] && !$0.canRedo }
    Step.send(.redo)
    Step.expect("nothing to redo") { $0.lastError == .nothingToRedo }
    write(.undo)
    Step.expect("delete undone: the task is back, in its place") {
      titles($0) == ["a", "b"] && $0.tasks.map(\.id) == [1, 2]
    }
    write(.add(title: "c"))
    Step.expect("ids are never reused") { $0.tasks.last?.id == 3 }
    write(.importTasks([TodoDraft(title: "d", done: true), TodoDraft(title: "e")]))
    Step.expect("imported") { titles($0) == ["a", "b", "c", "d", "e"] && $0.tasks[3].done }
    write(.undo)
    Step.expect("an import is one undo step") { titles($0) == ["a", "b", "c"] }
  }
}
