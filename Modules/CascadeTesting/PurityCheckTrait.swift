import CascadeStore
public import Testing

/// A Swift Testing trait that turns on the `PurityCheck` (CascadeStore) for each test: every
/// store, reactor and feedback loop the test creates reduces each input twice, from copies of
/// the same state, and a reducer that gives two different states fails the test with the input
/// that showed it (`StoreDiagnostic.impureReducer(input:difference:)`).
///
/// ```swift
/// @Suite(.checksPurity)
/// struct GameTests {
///   @Test func attackHits() { … }
/// }
/// ```
///
/// The check covers stores created on the test's task and the tasks it starts; a store created
/// on a thread of its own (a `Thread`, a raw `DispatchQueue`) is checked only with
/// `CASCADE_PURITY_CHECK=1` in the environment. It does nothing in release builds.
public struct PurityCheckTrait: TestTrait, SuiteTrait, TestScoping {
  /// Applies to every test in a suite.
  public var isRecursive: Bool { true }

  /// Creates the trait.
  public init() {}

  /// Runs one test with the check on.
  @concurrent
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable @concurrent () async throws -> Void
  ) async throws {
    guard testCase != nil || !test.isSuite else {
      try await function()
      return
    }
    try await PurityCheck.withEnabled { try await function() }
  }
}

extension Trait where Self == PurityCheckTrait {
  /// Reduces each input of the stores, reactors and feedback loops the test creates twice, and
  /// fails the test if a reducer is not pure (CascadeStore's `PurityCheck`).
  public static var checksPurity: Self { PurityCheckTrait() }
}
