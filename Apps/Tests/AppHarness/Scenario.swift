public import AppSupport
import CascadeStreams
import CustomDump
import IssueReporting

/// A scripted use of an app: intents to send and what the state must show along the way.
///
/// The same scenario runs against every architecture's implementation of the app; the
/// harness records the states each one went through and requires identical sequences.
///
/// ```swift
/// typealias Step = Scenario<GameIntent, GameState>.Step
///
/// let levelUp = Scenario<GameIntent, GameState>("level up") {
///   Step.send(.newGame(name: "Ada", seed: 42))
///   Step.send(.attack)
///   Step.await("the monster is defeated") { $0.monster == nil }
///   Step.expect("level 2") { $0.player?.level == 2 }
/// }
/// ```
///
/// In the builder, start each line with `Step.`: a line starting with `.send(…)` would be read
/// as a member of the line before it. The array form, `Scenario(name, steps: [.send(…), …])`,
/// needs no prefix.
public struct Scenario<Intent: Sendable, State: Sendable & Equatable>: Sendable,
  CustomStringConvertible
{
  /// One step of a scenario.
  public enum Step: Sendable {
    /// Sends an intent to the service.
    case send(Intent)
    /// Waits (up to the scenario's timeout) until the state satisfies the predicate; asynchronous
    /// work (saving, requests, database writes) is awaited this way.
    case await(String, @Sendable (State) -> Bool)
    /// Requires the current state to satisfy the predicate now.
    case expect(String, @Sendable (State) -> Bool)
    /// Runs arbitrary code between steps (corrupting a file, stopping a server).
    case perform(String, @Sendable () async throws -> Void)
  }

  /// The scenario's name, shown in failures and as the test's argument.
  public var name: String
  /// The steps, in order.
  public var steps: [Step]
  /// How long an ``Step/await(_:_:)`` step may wait: a safety net that turns a hang into a
  /// failure (the step ends as soon as the state arrives).
  public var timeout: Duration

  /// Creates a scenario from its steps.
  public init(_ name: String, timeout: Duration = .seconds(60), steps: [Step]) {
    self.name = name
    self.steps = steps
    self.timeout = timeout
  }

  /// Creates a scenario from its steps, listed one per line.
  public init(
    _ name: String,
    timeout: Duration = .seconds(60),
    @StepsBuilder steps: () -> [Step]
  ) {
    self.init(name, timeout: timeout, steps: steps())
  }

  /// The name.
  public var description: String { name }

  /// Collects steps written one per line.
  @resultBuilder
  public enum StepsBuilder {
    /// Joins the steps.
    public static func buildBlock(_ steps: [Step]...) -> [Step] { steps.flatMap { $0 } }
    /// One step.
    public static func buildExpression(_ step: Step) -> [Step] { [step] }
    /// Several steps.
    public static func buildExpression(_ steps: [Step]) -> [Step] { steps }
    /// Steps under `for`.
    public static func buildArray(_ steps: [[Step]]) -> [Step] { steps.flatMap { $0 } }
    /// Steps under `if`.
    public static func buildOptional(_ steps: [Step]?) -> [Step] { steps ?? [] }
    /// Steps under `if`/`else`.
    public static func buildEither(first steps: [Step]) -> [Step] { steps }
    /// Steps under `if`/`else`.
    public static func buildEither(second steps: [Step]) -> [Step] { steps }
  }
}

/// A failed step: which one and why.
public struct ScenarioFailure: Error, CustomStringConvertible {
  /// The scenario.
  public var scenario: String
  /// The architecture it ran on.
  public var architecture: Architecture
  /// The step's position, from 1.
  public var step: Int
  /// What went wrong.
  public var message: String

  /// A one-line account.
  public var description: String {
    "\(scenario) on \(architecture), step \(step): \(message)"
  }
}

/// Runs `scenario` against one service and returns the distinct consecutive states it went
/// through, the initial state first.
///
/// - Throws: ``ScenarioFailure`` when a step's expectation fails or an await times out.
public func run<Service: AppService>(
  _ scenario: Scenario<Service.Intent, Service.State>,
  on service: Service
) async throws -> [Service.State] {
  let recorded = StateLog<Service.State>()
  let subscription = service.states.subscribe(onNext: { recorded.append($0) })
  defer { subscription.dispose() }
  for (index, step) in scenario.steps.enumerated() {
    func fail(_ message: String) -> ScenarioFailure {
      ScenarioFailure(
        scenario: scenario.name,
        architecture: service.architecture,
        step: index + 1,
        message: message
      )
    }
    switch step {
    case .send(let intent):
      service.send(intent)
    case .await(let what, let predicate):
      do {
        _ = try await service.waitForState(timeout: scenario.timeout, where: predicate)
      } catch {
        throw fail("awaiting \(what): \(error)")
      }
    case .expect(let what, let predicate):
      let state = service.currentState
      guard predicate(state) else {
        throw fail("expected \(what); state: \(String(customDumping: state))")
      }
    case .perform(let what, let body):
      do { try await body() } catch { throw fail("\(what) failed: \(error)") }
    }
  }
  return recorded.states
}

/// Runs `scenario` on every architecture, each on a fresh service from `makeService` (which may
/// return the app's `any AppService<Intent, State>`), and reports a test issue unless every
/// architecture went through the identical state sequence.
@discardableResult
public func assertIdenticalAcrossArchitectures<Intent: Sendable, State: Sendable & Equatable>(
  _ scenario: Scenario<Intent, State>,
  architectures: [Architecture] = Architecture.allCases,
  makeService: (Architecture) async throws -> any AppService<Intent, State>,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async throws -> [State] {
  try await assertIdenticalAcrossArchitectures(
    scenario,
    architectures: architectures,
    makeService: { AnyAppService(try await makeService($0)) },
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
}

/// Runs `scenario` on every architecture, each on a fresh service from `makeService`, and
/// reports a test issue unless every architecture went through the identical state sequence.
///
/// Returns the sequence of the first architecture (for further checks).
@discardableResult
public func assertIdenticalAcrossArchitectures<Service: AppService>(
  _ scenario: Scenario<Service.Intent, Service.State>,
  architectures: [Architecture] = Architecture.allCases,
  makeService: (Architecture) async throws -> Service,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async throws -> [Service.State] {
  var results: [(Architecture, [Service.State])] = []
  for architecture in architectures {
    let service = try await makeService(architecture)
    results.append((architecture, try await run(scenario, on: service)))
  }
  guard let (reference, expected) = results.first else { return [] }
  for (architecture, states) in results.dropFirst() where states != expected {
    let diff = CustomDump.diff(expected, states) ?? ""
    reportIssue(
      "\(scenario.name): \(architecture) went through other states than \(reference)\n\(diff)",
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
  return expected
}

/// The states seen, with consecutive duplicates removed; written from any thread.
final class StateLog<State: Sendable & Equatable>: Sendable {
  private let storage = LockedValue<[State]>([])

  func append(_ state: State) {
    storage.withLock { states in
      if states.last != state { states.append(state) }
    }
  }

  var states: [State] { storage.withLock { $0 } }
}
