import CascadeStreams
public import Testing

/// A Swift Testing trait that fails a test whose stream resources outlive it (AT-40).
///
/// It records ``CascadeStreams/Resources/total`` before each test, runs the test, then waits up to
/// one second for the count to come back (work on other threads may still be finishing) and
/// records an issue naming the difference if it does not. Tests carrying the trait run one at a
/// time, so the process-wide counter is attributable to the test that runs; tests without it
/// still run in parallel.
///
/// ```swift
/// @Suite(.checksResources)
/// struct MapTests {
///   @Test func mapsValues() { … }
/// }
/// ```
public struct ResourceLeakCheck: TestTrait, SuiteTrait, TestScoping {
  /// Applies to every test in a suite.
  public var isRecursive: Bool { true }

  /// How long to wait for resources released on other threads.
  public var grace: Duration

  /// Wraps one test with the before-and-after count.
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
    await ResourceGate.shared.acquire()
    let before = Resources.total
    do {
      try await function()
    } catch {
      await ResourceGate.shared.release()
      throw error
    }
    var after = Resources.total
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: grace)
    while after != before && clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
      after = Resources.total
    }
    await ResourceGate.shared.release()
    if after != before {
      Issue.record(
        "AT-40: \(after - before) stream resource(s) still live after the test (\(before) → \(after))"
      )
    }
  }
}

extension Trait where Self == ResourceLeakCheck {
  /// Fails the test if any stream resource it created is still live a second after it ends.
  public static var checksResources: Self { ResourceLeakCheck(grace: .seconds(1)) }
}

/// Lets one resource-checked test run at a time.
private actor ResourceGate {
  static let shared = ResourceGate()
  private var busy = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func acquire() async {
    if !busy {
      busy = true
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  func release() {
    if waiters.isEmpty {
      busy = false
    } else {
      waiters.removeFirst().resume()
    }
  }
}
