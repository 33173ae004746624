import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct RetryBackoffTests {
  // MARK: RetryBackoff

  @Test func constantWaitsTheSameBeforeEveryRetry() {
    let backoff = RetryBackoff.constant(.seconds(2))
    #expect((1...4).map(backoff.delay(beforeRetry:)) == Array(repeating: .seconds(2), count: 4))
  }

  @Test func exponentialGrowsByTheMultiplierUpToTheMaximum() {
    let doubling = RetryBackoff.exponential(initial: .seconds(1))
    #expect(
      (1...4).map(doubling.delay(beforeRetry:)) == [
        .seconds(1), .seconds(2), .seconds(4), .seconds(8),
      ]
    )
    let capped = RetryBackoff.exponential(
      initial: .milliseconds(100),
      multiplier: 3,
      maximum: .seconds(1)
    )
    #expect(
      (1...5).map(capped.delay(beforeRetry:)) == [
        .milliseconds(100), .milliseconds(300), .milliseconds(900), .seconds(1), .seconds(1),
      ]
    )
  }

  @Test func exponentialNeverOverflows() {
    let doubling = RetryBackoff.exponential(initial: .seconds(1))
    let huge = doubling.delay(beforeRetry: 10_000)
    #expect(huge > .seconds(1_000_000_000))
    #expect(doubling.delay(beforeRetry: Int.max) == huge)
    #expect(RetryBackoff.exponential(initial: .zero).delay(beforeRetry: 10_000) == .zero)
  }

  // MARK: retry(maxAttempts:backoff:scheduler:shouldRetry:)

  @Test func resubscribesAfterTheBackoff() {
    let scheduler = TestScheduler()
    let subscriptions = TimeLog()
    let failing: Observable<Int, TestError> = scheduler.timeline([
      .next(.seconds(1), 1),
      .error(.seconds(2), TestError("boom")),
    ])
    let source = Observable<Int, TestError>.deferred {
      subscriptions.append(scheduler.now)
      return failing
    }
    let observer = scheduler.record(
      source.retry(maxAttempts: 3, backoff: .constant(.seconds(5)), scheduler: scheduler)
    )
    #expect(subscriptions.times == [.seconds(0), .seconds(7), .seconds(14)])
    #expect(
      observer.events == [
        .next(.seconds(1), 1),
        .next(.seconds(8), 1),
        .next(.seconds(15), 1),
        .error(.seconds(16), TestError("boom")),
      ]
    )
  }

  @Test func completesWhenAnAttemptSucceeds() {
    let scheduler = TestScheduler()
    let attempts = Counter()
    let source = Observable<Int, TestError>.deferred {
      if attempts.increment() < 3 { return .error(TestError("not yet")) }
      return .just(42)
    }
    let observer = scheduler.record(
      source.retry(
        maxAttempts: 5,
        backoff: .exponential(initial: .seconds(1)),
        scheduler: scheduler
      )
    )
    #expect(attempts.value == 3)
    #expect(observer.events == [.next(.seconds(3), 42), .completed(.seconds(3))])
  }

  @Test func deliversFailuresThatShouldNotBeRetried() {
    let scheduler = TestScheduler()
    let attempts = Counter()
    let source = Observable<Int, TestError>.deferred {
      attempts.increment()
      return .error(TestError(attempts.value == 1 ? "transient" : "fatal"))
    }
    let observer = scheduler.record(
      source.retry(
        maxAttempts: 10,
        backoff: .constant(.seconds(1)),
        scheduler: scheduler,
        shouldRetry: { $0.message == "transient" }
      )
    )
    #expect(attempts.value == 2)
    #expect(observer.events == [.error(.seconds(1), TestError("fatal"))])
  }

  @Test func oneAttemptMeansNoRetry() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(
      Observable<Int, TestError>.error(TestError("boom"))
        .retry(maxAttempts: 1, backoff: .constant(.seconds(1)), scheduler: scheduler)
    )
    #expect(observer.events == [.error(.zero, TestError("boom"))])
  }

  @Test func disposeDuringTheBackoffCancelsTheRetry() {
    let scheduler = TestScheduler()
    let attempts = Counter()
    let source = Observable<Int, TestError>.deferred {
      attempts.increment()
      return .error(TestError("boom"))
    }
    let observer = scheduler.record(
      source.retry(maxAttempts: 3, backoff: .constant(.seconds(5)), scheduler: scheduler),
      until: .seconds(2)
    )
    scheduler.advance(by: .seconds(10))
    #expect(attempts.value == 1)
    #expect(observer.events.isEmpty)
    #expect(scheduler.pendingCount == 0)
  }

  // AT-37: an HTTP-like effect with a 10 s timeout and 3 retries at 1, 2 and 4 s, against a
  // server that never answers: attempts at 0, 11, 23 and 37, exactly 4 requests, and the error
  // at exactly 47, all in virtual time.
  @Test func timeoutThenRetryAgainstASilentServer() {
    let scheduler = TestScheduler()
    let requests = TimeLog()
    let request = Observable<String, any Error>.create { _ in
      requests.append(scheduler.now)
      return Disposables.empty
    }
    let effect =
      request
      .timeout(.seconds(10), scheduler: scheduler)
      .retry(maxAttempts: 4, backoff: .exponential(initial: .seconds(1)), scheduler: scheduler)
    let observer = scheduler.createObserver(String.self, failure: (any Error).self)
    let subscription = effect.subscribe(observer)
    scheduler.run()
    #expect(requests.times == [.seconds(0), .seconds(11), .seconds(23), .seconds(37)])
    #expect(observer.events.count == 1)
    #expect(observer.events.first?.time == .seconds(47))
    #expect(observer.events.first?.value.failure is TimeoutError)
    #expect(scheduler.now == SchedulerInstant(offset: .seconds(47)))
    subscription.dispose()
  }
}
