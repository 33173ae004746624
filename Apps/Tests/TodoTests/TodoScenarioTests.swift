import AppHarness
import AppScenarios
import AppSupport
import CascadeStreams
import CascadeTesting
import Foundation
import Testing
import TodoCore

/// The task list through the shared harness: every architecture, on a fresh database file of its
/// own, must go through the identical sequence of states.
@Suite(.checksResources) struct TodoScenarioTests {

  /// Runs `scenario` on every architecture, each on a new database in a temporary directory;
  /// `path` holds the database path of the architecture running.
  @discardableResult
  static func check(
    _ scenario: TodoScenario,
    path: LockedValue<String> = LockedValue("")
  ) async throws -> [TodoState] {
    try await withTemporaryDirectory { directory in
      try await assertIdenticalAcrossArchitectures(handlingEachIntent(scenario)) { architecture in
        let file = directory.appendingPathComponent("\(architecture).sqlite").path
        path.withLock { $0 = file }
        return makeTodo(architecture, database: try TodoDatabase(path: file))
      }
    }
  }

  @Test func rxTodoBasics() async throws {
    let states = try await Self.check(
      TodoComparison.basics
    )
    // The write shows at once, pending, before the database has it.
    let pending = try #require(states.first { $0.pendingWriteCount == 1 })
    #expect(pending.titles == ["Buy milk"])
  }

  @Test func badIntentsChangeNothing() async throws {
    try await Self.check(
      TodoScenario("empty titles and unknown ids are refused") {
        write(.add(title: "Buy milk"))
        send(.add(title: "   "))
        expect("empty title refused") {
          $0.lastError == .emptyTitle && $0.titles == ["Buy milk"] && $0.isIdle
        }
        send(.edit(id: 1, title: ""))
        expect("empty edit refused") { $0.lastError == .emptyTitle && $0.titles == ["Buy milk"] }
        send(.setDone(id: 42, true))
        expect("unknown id") { $0.lastError == .unknownTask(id: 42) && $0.isIdle }
        send(.toggle(id: 7))
        expect("unknown id") { $0.lastError == .unknownTask(id: 7) }
        send(.delete(id: 9))
        expect("unknown id") { $0.lastError == .unknownTask(id: 9) }
        send(.importTasks([TodoDraft(title: "ok"), TodoDraft(title: " ")]))
        expect("an import with an empty title imports nothing") {
          $0.lastError == .emptyTitle && $0.titles == ["Buy milk"]
        }
        write(.move(id: 1, to: 99))
        expect("a move is clamped; the next intent clears the error") {
          $0.lastError == nil && $0.titles == ["Buy milk"]
        }
      }
    )
  }

  @Test func undoAndRedo() async throws {
    try await Self.check(
      TodoComparison.undoAndRedo
    )
  }

  @Test func filterAndSearch() async throws {
    try await Self.check(
      TodoScenario("filter and search") {
        write(
          .importTasks([
            TodoDraft(title: "Buy milk", done: true), TodoDraft(title: "Buy bread"),
            TodoDraft(title: "Call mum"),
          ])
        )
        send(.filter(.active))
        expect("active") { $0.visibleTasks.map(\.title) == ["Buy bread", "Call mum"] }
        send(.filter(.done))
        expect("done") { $0.visibleTasks.map(\.title) == ["Buy milk"] }
        send(.filter(.all))
        send(.search("BUY"))
        expect("search, case-insensitive") {
          $0.visibleTasks.map(\.title) == ["Buy milk", "Buy bread"]
        }
        send(.filter(.active))
        expect("search and filter") { $0.visibleTasks.map(\.title) == ["Buy bread"] }
        send(.search(""))
        expect("filters change no task") { $0.tasks.count == 3 && $0.isIdle }
      }
    )
  }

  @Test func failedWriteIsReportedAndReconciled() async throws {
    let path = LockedValue("")
    let states = try await Self.check(
      TodoScenario("a write that the database refuses") {
        write(.add(title: "a"))
        write(.add(title: "b"))
        perform("another process deletes task 1") {
          _ = try TodoDatabase(path: path.withLock { $0 }).perform(.delete(id: 1))
        }
        send(.edit(id: 1, title: "A"))
        waitFor("written") { $0.isIdle }
        expect("reported, and reconciled with what is stored") {
          $0.lastError == .unknownTask(id: 1) && $0.titles == ["b"]
        }
        write(.reload)
        expect("the error is cleared by the next intent") { $0.lastError == nil }
        perform("another process adds a task") {
          _ = try TodoDatabase(path: path.withLock { $0 }).perform(.add(title: "c"))
        }
        write(.reload)
        expect("reload shows it") { $0.titles == ["b", "c"] && $0.tasks.last?.id == 3 }
      },
      path: path
    )
    // The edit showed at once, while its write was pending.
    #expect(states.contains { $0.titles == ["A", "b"] && $0.pendingWriteCount == 1 })
  }
}
