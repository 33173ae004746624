extension ObservableType {
  /// Resubscribes to the source after a failure, waiting `backoff` on `scheduler` first, for at
  /// most `maxAttempts` attempts in all.
  ///
  /// The first attempt subscribes at once. When an attempt fails with an error that
  /// `shouldRetry` accepts and fewer than `maxAttempts` attempts were made, the next attempt
  /// subscribes after `backoff.delay(beforeRetry: n)` (n = 1 for the second attempt). Otherwise
  /// the failure is delivered. Values of every attempt are forwarded as they come; completion of
  /// any attempt completes the stream.
  ///
  /// ```swift
  /// // an HTTP-like effect against a server that never answers: attempts at 0, 11, 23 and 37 s,
  /// // then a TimeoutError at 47 s
  /// request
  ///   .timeout(.seconds(10), scheduler: scheduler)
  ///   .retry(maxAttempts: 4, backoff: .exponential(initial: .seconds(1)), scheduler: scheduler)
  /// ```
  ///
  /// - Parameters:
  ///   - maxAttempts: The number of subscriptions to make in all, the first included; at least 1.
  ///   - backoff: How long to wait before each new attempt.
  ///   - scheduler: The scheduler that measures the waits and makes the new subscriptions.
  ///   - shouldRetry: Whether a failure is worth another attempt; a failure it rejects is
  ///     delivered at once.
  /// - Returns: The events of the attempts, ending with the last attempt's failure.
  public func retry(
    maxAttempts: Int,
    backoff: RetryBackoff,
    scheduler: some Scheduler,
    shouldRetry: @escaping @Sendable (Failure) -> Bool = { _ in true }
  ) -> Observable<Element, Failure> {
    precondition(maxAttempts >= 1, "retry(maxAttempts:) needs at least one attempt")
    return Observable(unchecked: { observer in
      BackoffRetrySink(
        downstream: observer,
        source: self,
        maxAttempts: maxAttempts,
        backoff: backoff,
        scheduler: scheduler,
        shouldRetry: shouldRetry
      ).run()
    })
  }
}

/// The subscription behind ``ObservableType/retry(maxAttempts:backoff:scheduler:shouldRetry:)``.
private final class BackoffRetrySink<Source: ObservableType>:
  Sink<Source.Element, Source.Failure>, @unchecked Sendable
{
  // Safety: `attempts` is guarded by `lock`; `attempt` is only replaced when an attempt starts
  // and `wait` when one fails, and attempts follow one another; the rest is immutable.
  private let source: Source
  private let maxAttempts: Int
  private let backoff: RetryBackoff
  private let scheduler: any Scheduler
  private let shouldRetry: @Sendable (Source.Failure) -> Bool
  private let attempt = SerialDisposable()
  private let wait = SerialDisposable()
  private var attempts = 0

  init(
    downstream: AnyObserver<Source.Element, Source.Failure>,
    source: Source,
    maxAttempts: Int,
    backoff: RetryBackoff,
    scheduler: any Scheduler,
    shouldRetry: @escaping @Sendable (Source.Failure) -> Bool
  ) {
    self.source = source
    self.maxAttempts = maxAttempts
    self.backoff = backoff
    self.scheduler = scheduler
    self.shouldRetry = shouldRetry
    super.init(downstream: downstream)
  }

  func run() -> any Disposable {
    upstream.insert(attempt)
    upstream.insert(wait)
    subscribe()
    return self
  }

  private func subscribe() {
    guard !isDisposed else { return }
    lock.withLock { attempts += 1 }
    let subscription = SingleAssignmentDisposable()
    attempt.replace(with: subscription)
    subscription.setDisposable(source.subscribe(observer { [self] in on($0) }))
  }

  private func on(_ event: StreamEvent<Source.Element, Source.Failure>) {
    guard case .error(let failure) = event else {
      forward(event)
      return
    }
    let made = lock.withLock { attempts }
    guard made < maxAttempts, !isDisposed, shouldRetry(failure) else {
      forward(event)
      return
    }
    let delay = backoff.delay(beforeRetry: made)
    // The wait's slot is in place before the retry is scheduled: on a concurrent scheduler the
    // retry may start at once, elsewhere, and its attempt fail and schedule the next retry, whose
    // slot must not be replaced by this one's (which would cancel that retry).
    let slot = SingleAssignmentDisposable()
    wait.replace(with: slot)
    slot.setDisposable(scheduler.schedule(after: delay) { [self] in subscribe() })
  }
}
