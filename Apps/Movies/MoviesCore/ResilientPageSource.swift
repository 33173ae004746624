public import CascadeStreams

/// A page source that gives up on a page after a timeout and tries a failed page again, with a
/// backoff, on a scheduler you choose (a `TestScheduler` in tests: no wall-clock time passes).
///
/// ```swift
/// // against a server that never answers: attempts at 0, 11, 23 and 37 s, a timeout at 47 s
/// let source = client.resilient(
///   timeout: .seconds(10),
///   attempts: 4,
///   backoff: .exponential(initial: .seconds(1)),
///   scheduler: scheduler
/// )
/// ```
///
/// A client error (HTTP 4xx) and a malformed body are not retried: asking again would give the
/// same answer.
public struct ResilientPageSource: MoviePageSource {
  /// The source asked for each attempt.
  public let base: any MoviePageSource
  /// How long one attempt may take.
  public let timeout: Duration
  /// The number of attempts in all, the first included.
  public let attempts: Int
  /// How long to wait before each new attempt.
  public let backoff: RetryBackoff
  /// The scheduler of the timeouts and waits.
  public let scheduler: any Scheduler

  /// Creates the source.
  public init(
    base: any MoviePageSource,
    timeout: Duration,
    attempts: Int,
    backoff: RetryBackoff,
    scheduler: any Scheduler
  ) {
    self.base = base
    self.timeout = timeout
    self.attempts = max(1, attempts)
    self.backoff = backoff
    self.scheduler = scheduler
  }

  /// Page `number`: the attempts, each timing out, until one answers or the last one fails.
  public func page(_ number: Int) -> Observable<MoviePage, MoviesError> {
    base.page(number)
      .timeout(timeout, scheduler: scheduler, error: .timeout)
      .retry(
        maxAttempts: attempts,
        backoff: backoff,
        scheduler: scheduler,
        shouldRetry: Self.isWorthRetrying
      )
  }

  /// Whether asking again may give another answer.
  static func isWorthRetrying(_ error: MoviesError) -> Bool {
    switch error {
    case .transport, .timeout: true
    case .httpStatus(let status): status >= 500 || status == 429
    case .malformedBody: false
    }
  }
}

extension MoviePageSource {
  /// This source, with a timeout per attempt and retries with a backoff.
  public func resilient(
    timeout: Duration,
    attempts: Int,
    backoff: RetryBackoff,
    scheduler: any Scheduler
  ) -> ResilientPageSource {
    ResilientPageSource(
      base: self,
      timeout: timeout,
      attempts: attempts,
      backoff: backoff,
      scheduler: scheduler
    )
  }
}
