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
/// What is retried: a timeout, a server that cannot be reached or a connection that broke
/// (``MoviesError/transport(_:)``, ``MoviesError/truncatedBody(received:expected:)``), HTTP 5xx,
/// and HTTP 429 (``MoviesError/tooManyRequests(retryAfter:)``). A 429 that says how long to wait
/// (`Retry-After`) is asked again after exactly that wait instead of the backoff's, if it is at
/// most ``maxRetryAfter``; a longer wait is not retried: the failure is delivered at once. A
/// client error (other HTTP 4xx), a malformed body or reply, a body that is too large or not JSON are not
/// retried: asking again would give the same answer.
public struct ResilientPageSource: MoviePageSource {
  /// The source asked for each attempt.
  public let base: any MoviePageSource
  /// How long one attempt may take.
  public let timeout: Duration
  /// The number of attempts in all, the first included.
  public let attempts: Int
  /// How long to wait before each new attempt, unless the server said (`Retry-After`).
  public let backoff: RetryBackoff
  /// The longest `Retry-After` honoured; a 429 asking for a longer wait is not retried.
  public let maxRetryAfter: Duration
  /// The scheduler of the timeouts and waits.
  public let scheduler: any Scheduler
  /// Told before each wait for a new attempt.
  public let onRetry: @Sendable (Retry) -> Void

  /// A new attempt about to be waited for.
  public struct Retry: Sendable, Equatable {
    /// The page.
    public var page: Int
    /// The attempt that will be made, counting the first one as 1 (so at least 2).
    public var attempt: Int
    /// The attempts in all.
    public var attempts: Int
    /// Why the last attempt failed.
    public var error: MoviesError
    /// The wait before the new attempt.
    public var delay: Duration
    /// Whether the wait is the one the server asked for (`Retry-After`).
    public var serverAsked: Bool

    /// Creates the account of a retry.
    public init(
      page: Int,
      attempt: Int,
      attempts: Int,
      error: MoviesError,
      delay: Duration,
      serverAsked: Bool
    ) {
      self.page = page
      self.attempt = attempt
      self.attempts = attempts
      self.error = error
      self.delay = delay
      self.serverAsked = serverAsked
    }
  }

  /// The default of ``maxRetryAfter``: a minute.
  public static let defaultMaxRetryAfter = Duration.seconds(60)

  /// Creates the source.
  public init(
    base: any MoviePageSource,
    timeout: Duration,
    attempts: Int,
    backoff: RetryBackoff,
    maxRetryAfter: Duration = ResilientPageSource.defaultMaxRetryAfter,
    scheduler: any Scheduler,
    onRetry: @escaping @Sendable (Retry) -> Void = { _ in }
  ) {
    self.base = base
    self.timeout = timeout
    self.attempts = max(1, attempts)
    self.backoff = backoff
    self.maxRetryAfter = maxRetryAfter
    self.scheduler = scheduler
    self.onRetry = onRetry
  }

  /// Page `number`: the attempts, each timing out, until one answers or the last one fails.
  public func page(_ number: Int) -> Observable<MoviePage, MoviesError> {
    attempt(number, made: 1)
  }

  /// Attempt number `made` at page `number`, and the ones after it.
  private func attempt(_ number: Int, made: Int) -> Observable<MoviePage, MoviesError> {
    base.page(number)
      .timeout(timeout, scheduler: scheduler, error: .timeout)
      .catch { [self] error -> Observable<MoviePage, MoviesError> in
        guard made < attempts, let (delay, asked) = wait(after: error, retry: made) else {
          return .error(error)
        }
        onRetry(
          Retry(
            page: number,
            attempt: made + 1,
            attempts: attempts,
            error: error,
            delay: delay,
            serverAsked: asked
          )
        )
        return Observable<Int, MoviesError>.timer(delay, scheduler: scheduler)
          .flatMap { _ in attempt(number, made: made + 1) }
      }
  }

  /// The wait before retry number `retry` (from 1) after `error`, and whether the server asked
  /// for it; `nil` when `error` is not worth another attempt.
  func wait(after error: MoviesError, retry: Int) -> (Duration, Bool)? {
    guard Self.isWorthRetrying(error) else { return nil }
    if case .tooManyRequests(let asked?) = error {
      return asked <= maxRetryAfter ? (asked, true) : nil
    }
    return (backoff.delay(beforeRetry: retry), false)
  }

  /// Whether asking again may give another answer.
  static func isWorthRetrying(_ error: MoviesError) -> Bool {
    switch error {
    case .transport, .timeout, .truncatedBody, .tooManyRequests: true
    case .httpStatus(let status): status >= 500
    case .malformedBody, .malformedReply, .bodyTooLarge, .notJSON: false
    }
  }
}

extension MoviePageSource {
  /// This source, with a timeout per attempt and retries with a backoff (or the wait a 429's
  /// `Retry-After` asks, up to `maxRetryAfter`).
  public func resilient(
    timeout: Duration,
    attempts: Int,
    backoff: RetryBackoff,
    maxRetryAfter: Duration = ResilientPageSource.defaultMaxRetryAfter,
    scheduler: any Scheduler,
    onRetry: @escaping @Sendable (ResilientPageSource.Retry) -> Void = { _ in }
  ) -> ResilientPageSource {
    ResilientPageSource(
      base: self,
      timeout: timeout,
      attempts: attempts,
      backoff: backoff,
      maxRetryAfter: maxRetryAfter,
      scheduler: scheduler,
      onRetry: onRetry
    )
  }
}
