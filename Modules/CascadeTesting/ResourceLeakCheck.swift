import CascadeReactor
import CascadeStreams
public import Testing

/// A Swift Testing trait that fails a test whose stream resources outlive it (AT-40).
///
/// Each test runs with a `ResourceAccount` of its own made current: every subscription, sink,
/// scheduled item, command task and effect the test creates — on its own task, in the tasks it
/// starts, and in the work Cascade's schedulers and stores run for it on other threads — is
/// charged to that account. After the test, the check waits for the account to empty (it wakes
/// the moment the last resource is released) and records an issue naming how many are still
/// live if it has not emptied within the grace period.
///
/// The runtimes of released reactors that declare no `runtime` property, which a shared table
/// keeps until it is swept (`ReactorRuntimes`), are released before the check.
///
/// Because every test counts only its own resources, checked tests run in parallel with each
/// other and with everything else, and a leak is attributed to the test that caused it.
///
/// ```swift
/// @Suite(.checksResources)
/// struct MapTests {
///   @Test func mapsValues() { … }
/// }
/// ```
///
/// Resources that a test creates on a thread of its own (a `Thread`, a raw `DispatchQueue`)
/// are charged to it only if that code makes the account current:
/// `account.withCurrent { … }` with the account read from `ResourceAccount.current`.
public struct ResourceLeakCheck: TestTrait, SuiteTrait, TestScoping {
  /// Applies to every test in a suite.
  public var isRecursive: Bool { true }

  /// How long to wait for resources released on other threads.
  ///
  /// The wait ends as soon as the test's account is empty, so this only bounds how long a leak
  /// takes to be reported; it is generous so that a loaded machine never fails a correct test.
  public var grace: Duration

  /// Creates the check with a grace period for resources released on other threads.
  ///
  /// - Parameter grace: How long to wait at most for the test's resources to be released.
  public init(grace: Duration = .seconds(30)) {
    self.grace = grace
  }

  /// Wraps one test with an account of its own, checked when it ends.
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
    let account = ResourceAccount()
    try await account.withCurrent { try await function() }
    // Reactors that declare no `runtime` leave theirs in a shared table until it is swept.
    ReactorRuntimes.purgeReleased()
    var empty = await account.waitUntilEmpty(timeout: grace)
    if !empty {
      // Released since the first sweep, on another thread?
      ReactorRuntimes.purgeReleased()
      empty = account.live == 0
    }
    if !empty {
      let live = account.live
      Issue.record(
        "AT-40: \(live) stream resource(s) still live after the test",
        sourceLocation: test.sourceLocation
      )
    }
  }
}

extension Trait where Self == ResourceLeakCheck {
  /// Fails the test if any stream resource it created is still live after it ends (waiting up
  /// to 30 seconds for those released on other threads).
  public static var checksResources: Self { ResourceLeakCheck() }
}
