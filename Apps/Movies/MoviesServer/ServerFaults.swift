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
/// faults.htmlPages = [6]          // page 6 answers an HTML page (Content-Type: text/html)
/// faults.oversizedPages = [7: .init(bytes: 50_000_000)]  // page 7 is 50 MB of valid JSON
/// faults.rateLimitedPages = [8: 1]  // page 8 answers HTTP 429 once, then works
/// faults.retryAfter = "2"         // and asks to wait 2 seconds (or an HTTP-date)
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
  /// Pages that answer an HTML page with `Content-Type: text/html` and status 200.
  public var htmlPages: Set<Int>
  /// Pages whose JSON is padded with spaces to a size: still a valid page, only too large.
  public var oversizedPages: [Int: Padding]
  /// Pages that answer HTTP 429 (too many requests), and how many times before they work.
  public var rateLimitedPages: [Int: Int]
  /// The `Retry-After` header of the 429 answers (delta-seconds or an HTTP-date), if any.
  public var retryAfter: String?

  /// How an oversized page is sent.
  public struct Padding: Sendable, Equatable {
    /// The size of the body, in bytes.
    public var bytes: Int
    /// Whether the headers announce the size (`Content-Length`), or the body is sent in chunks
    /// of unknown total length.
    public var announced: Bool

    /// A body of `bytes` bytes, announced or not.
    public init(bytes: Int, announced: Bool = true) {
      self.bytes = bytes
      self.announced = announced
    }
  }

  /// No fault: every page answers at once.
  public init(
    latency: Duration = .zero,
    failureRate: Double = 0,
    seed: UInt64 = 0,
    failingPages: [Int: Int] = [:],
    malformedPages: Set<Int> = [],
    hangingPages: Set<Int> = [],
    disconnectingPages: [Int: Int] = [:],
    htmlPages: Set<Int> = [],
    oversizedPages: [Int: Padding] = [:],
    rateLimitedPages: [Int: Int] = [:],
    retryAfter: String? = nil
  ) {
    self.latency = latency
    self.failureRate = failureRate
    self.seed = seed
    self.failingPages = failingPages
    self.malformedPages = malformedPages
    self.hangingPages = hangingPages
    self.disconnectingPages = disconnectingPages
    self.htmlPages = htmlPages
    self.oversizedPages = oversizedPages
    self.rateLimitedPages = rateLimitedPages
    self.retryAfter = retryAfter
  }
}
