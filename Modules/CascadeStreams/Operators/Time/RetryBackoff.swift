/// How long ``ObservableType/retry(maxAttempts:backoff:scheduler:shouldRetry:)`` waits before
/// each new attempt.
///
/// ```swift
/// RetryBackoff.constant(.seconds(2))        // 2 s, 2 s, 2 s …
/// RetryBackoff.exponential(initial: .seconds(1))  // 1 s, 2 s, 4 s, 8 s …
/// RetryBackoff.exponential(initial: .milliseconds(100), multiplier: 3, maximum: .seconds(1))
/// // 0.1 s, 0.3 s, 0.9 s, 1 s, 1 s …
/// ```
public struct RetryBackoff: Hashable, Sendable {
  private enum Kind: Hashable, Sendable {
    case constant(Duration)
    case exponential(initial: Duration, multiplier: Double, maximum: Duration?)
  }

  private let kind: Kind

  private init(_ kind: Kind) {
    self.kind = kind
  }

  /// The same delay before every retry.
  ///
  /// - Parameter delay: The wait before each new attempt; not negative.
  /// - Returns: A backoff that always waits `delay`.
  public static func constant(_ delay: Duration) -> RetryBackoff {
    precondition(delay >= .zero, "RetryBackoff.constant needs a delay that is not negative")
    return RetryBackoff(.constant(delay))
  }

  /// A delay that starts at `initial` and is multiplied by `multiplier` before each further
  /// retry, up to `maximum`.
  ///
  /// The wait before retry *n* (counting from 1) is `initial × multiplier^(n − 1)`, capped at
  /// `maximum`, or at a million years without one, so the delay never overflows.
  ///
  /// - Parameters:
  ///   - initial: The wait before the first retry; not negative.
  ///   - multiplier: The growth factor from one retry to the next; at least 1.
  ///   - maximum: The longest wait, or `nil` for no cap.
  /// - Returns: A backoff that waits longer before each retry.
  public static func exponential(
    initial: Duration,
    multiplier: Double = 2,
    maximum: Duration? = nil
  ) -> RetryBackoff {
    precondition(initial >= .zero, "RetryBackoff.exponential needs an initial delay >= 0")
    precondition(multiplier >= 1, "RetryBackoff.exponential needs a multiplier >= 1")
    precondition(maximum.map { $0 >= .zero } ?? true, "RetryBackoff needs a maximum >= 0")
    return RetryBackoff(.exponential(initial: initial, multiplier: multiplier, maximum: maximum))
  }

  /// The wait before retry number `retry`, counting from 1 for the first retry (the second
  /// attempt).
  ///
  /// ```swift
  /// RetryBackoff.exponential(initial: .seconds(1)).delay(beforeRetry: 3)  // 4 seconds
  /// ```
  ///
  /// - Parameter retry: The retry's number, from 1.
  /// - Returns: How long to wait before it.
  public func delay(beforeRetry retry: Int) -> Duration {
    precondition(retry >= 1, "retries are numbered from 1")
    switch kind {
    case .constant(let delay):
      return delay
    case .exponential(let initial, let multiplier, let maximum):
      if initial == .zero { return .zero }
      let cap = maximum ?? Self.longest
      let factor = Self.power(multiplier, retry - 1)
      let product = Self.seconds(initial) * factor
      guard product.isFinite, product < Self.seconds(cap) else { return cap }
      return min(initial * factor, cap)
    }
  }

  /// The cap of an exponential backoff without a maximum: a million years.
  private static let longest = Duration.seconds(1_000_000 * 365 * 24 * 3600)

  /// `duration` in seconds, as a `Double`.
  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }

  /// `base` raised to the non-negative integer `exponent`, by repeated squaring.
  private static func power(_ base: Double, _ exponent: Int) -> Double {
    var result = 1.0
    var factor = base
    var remaining = exponent
    while remaining > 0 {
      if remaining & 1 == 1 { result *= factor }
      factor *= factor
      remaining >>= 1
    }
    return result
  }
}
