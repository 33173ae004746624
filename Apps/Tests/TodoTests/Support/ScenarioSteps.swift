import AppHarness
import AppScenarios
import AppSupport
import CascadeStreams
import TodoCore

typealias TodoScenario = Scenario<TodoIntent, TodoState>
typealias TodoStep = TodoScenario.Step

// Steps as functions, so that a step on the line after a call is not read as a member of it.

/// Sends an intent.
func send(_ intent: TodoIntent) -> TodoStep { .send(intent) }

/// Requires the state to satisfy `predicate` now.
func expect(_ what: String, _ predicate: @escaping @Sendable (TodoState) -> Bool) -> TodoStep {
  .expect(what, predicate)
}

/// Waits until the state satisfies `predicate`.
func waitFor(_ what: String, _ predicate: @escaping @Sendable (TodoState) -> Bool) -> TodoStep {
  .await(what, predicate)
}

/// Runs code between steps.
func perform(_ what: String, _ body: @escaping @Sendable () async throws -> Void) -> TodoStep {
  .perform(what, body)
}

/// Sends an intent and waits until its write has finished.
func write(_ intent: TodoIntent) -> [TodoStep] {
  [.send(intent), .await("written: \(intent)") { $0.isIdle }]
}

/// `scenario`, waiting after each intent until the service has handled it (shared with
/// `cascade-compare`).
func handlingEachIntent(_ scenario: TodoScenario) -> TodoScenario {
  TodoComparison.handlingEachIntent(scenario)
}
