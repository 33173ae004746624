import CascadeStreams
public import Testing

/// A Swift Testing trait that fails a test whose stream resources outlive it (AT-40).
///
/// It records `Resources.total` before each test, runs the test, then waits up to
/// one second for the count to come back (work on other threads may still be finishing) and
/// records an issue naming the difference if more resources are live than before. Tests carrying the trait run one at a
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

  /// Creates the check with a grace period for resources released on other threads.
  ///
  /// - Parameter grace: How long to wait for the count to come back after the test.
  public init(grace: Duration = .seconds(1)) {
    self.grace = grace
  }

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
    // A check nested in a checked test (a test of the check itself) runs inside the outer
    // test's turn instead of waiting for it.
    let nested = ResourceGate.isHeld
    if !nested { try await ResourceGate.shared.acquire() }
    let before = Resources.total
    do {
      try await ResourceGate.$isHeld.withValue(true) { try await function() }
    } catch {
      if !nested { await ResourceGate.shared.release() }
      throw error
    }
    var after = Resources.total
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: grace)
    while after > before && clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
      after = Resources.total
    }
    if !nested { await ResourceGate.shared.release() }
    // Fewer resources than before is no leak of this test: work of an earlier one (or of a suite
    // without the check, running in parallel) ended meanwhile.
    if after > before {
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

  /// Whether the current task runs inside a checked test's turn.
  @TaskLocal static var isHeld = false

  private var busy = false
  private var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
  private var nextID = 0

  /// Waits for the turn; throws `CancellationError` if the waiting test is cancelled (for
  /// example by its time limit while another test hangs), so the run ends instead of hanging.
  func acquire() async throws {
    if !busy {
      busy = true
      return
    }
    let id = nextID
    nextID += 1
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
        } else {
          waiters.append((id, continuation))
        }
      }
    } onCancel: {
      Task { await self.cancel(id) }
    }
  }

  func release() {
    if waiters.isEmpty {
      busy = false
    } else {
      waiters.removeFirst().continuation.resume()
    }
  }

  private func cancel(_ id: Int) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).continuation.resume(throwing: CancellationError())
  }
}
