/// Faults a catalog server injects, for demos and tests.
///
/// ```swift
/// var faults = ServerFaults()
/// faults.latency = .milliseconds(300)
/// faults.failureRate = 0.2        // one page in five answers HTTP 500 (seeded, reproducible)
/// faults.failingPages = [2: 1]    // page 2 answers HTTP 500 once, then works
/// faults.malformedPages = [3]     // page 3 answers a truncated JSON body
/// faults.hangingPages = [4]       // page 4 never answers
/// faults.disconnectingPages = [5: 1]  // page 5 breaks off its body once, then works
/// ```
public struct ServerFaults: Sendable, Equatable {
  /// How long every answer waits.
  public var latency: Duration
  /// The share of pages, from 0 to 1, that answer HTTP 500, drawn from a generator seeded
  /// with ``seed``.
  public var failureRate: Double
  /// The seed of the failure draws.
  public var seed: UInt64
  /// Pages that answer HTTP 500, and how many times before they work.
  public var failingPages: [Int: Int]
  /// Pages that answer a body that is not JSON.
  public var malformedPages: Set<Int>
  /// Pages that never answer (until the server stops).
  public var hangingPages: Set<Int>
  /// Pages whose answer is cut off: the status and headers announce the whole body, half of it
  /// is sent, and the server closes the connection; with how many times before they work.
  public var disconnectingPages: [Int: Int]

  /// No fault: every page answers at once.
  public init(
    latency: Duration = .zero,
    failureRate: Double = 0,
    seed: UInt64 = 0,
    failingPages: [Int: Int] = [:],
    malformedPages: Set<Int> = [],
    hangingPages: Set<Int> = [],
    disconnectingPages: [Int: Int] = [:]
  ) {
    self.latency = latency
    self.failureRate = failureRate
    self.seed = seed
    self.failingPages = failingPages
    self.malformedPages = malformedPages
    self.hangingPages = hangingPages
    self.disconnectingPages = disconnectingPages
  }
}
