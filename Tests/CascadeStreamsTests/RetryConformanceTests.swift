import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's retry cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+CatchTests.swift,
// `testRetry…` and `testRetryCount…`), re-expressed on Cascade's `TestScheduler`: the same cold
// inputs, times, expected events and subscription windows. `retry(n)` counts attempts as
// RxSwift's `retry(_ maxAttemptCount:)` does: the first subscription is the first attempt.
// Observable+RetryWhenTests.swift holds only `retry(when:)` cases, an operator Cascade does not
// have.
@Suite(.checksResources)
struct RetryConformanceTests {
  typealias Events = [Recorded<StreamEvent<Int, TestError>>]

  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// RxSwift's slow source: 1, 2, 3 at 100, 150 and 200 after each subscription, then `end` at
  /// 250 if given.
  func slow(end: StreamEvent<Int, TestError>?) -> ColdObservable<Int, TestError> {
    scheduler.createColdObservable(
      [.next(.seconds(100), 1), .next(.seconds(150), 2), .next(.seconds(200), 3)]
        + (end.map { [Recorded(time: .seconds(250), value: $0)] } ?? [])
    )
  }

  /// RxSwift's fast source: 1, 2, 3 at 5, 10 and 15 after each subscription, failing at 20.
  func fast() -> ColdObservable<Int, TestError> {
    scheduler.createColdObservable([
      .next(.seconds(5), 1), .next(.seconds(10), 2), .next(.seconds(15), 3),
      .error(.seconds(20), Self.failure),
    ])
  }

  static let slowValues: Events = [
    .next(.seconds(300), 1), .next(.seconds(350), 2), .next(.seconds(400), 3),
  ]

  func windows(_ times: (Int, Int)...) -> [SubscriptionWindow] {
    times.map { SubscriptionWindow(.seconds($0.0), .seconds($0.1)) }
  }

  // RxSwift: testRetry_Basic, testRetryCount_Completed. A completion ends it at once.
  @Test(arguments: [nil, 3])
  func aSourceThatCompletesIsNotRetried(maxAttempts: Int?) {
    let xs = slow(end: .completed)
    let observer = scheduler.start { maxAttempts.map { xs.retry($0) } ?? xs.retry() }
    observer.assertEvents(Self.slowValues + [.completed(.seconds(450))])
    xs.assertSubscriptions(windows((200, 450)))
  }

  // RxSwift: testRetry_Infinite
  @Test func aSourceThatNeverEndsStaysSubscribed() {
    let xs = slow(end: nil)
    let observer = scheduler.start { xs.retry() }
    observer.assertEvents(Self.slowValues)
    xs.assertSubscriptions(windows((200, 1000)))
  }

  // RxSwift: testRetry_Observable_Error
  @Test func aFailingSourceIsResubscribedForever() {
    let xs = slow(end: .error(Self.failure))
    let observer = scheduler.start(disposed: .seconds(1100)) { xs.retry() }
    observer.assertEvents(
      [300, 550, 800].flatMap { start in
        [1, 2, 3].map { value in .next(.seconds(start + (value - 1) * 50), value) }
      } + [.next(.seconds(1050), 1)]
    )
    xs.assertSubscriptions(windows((200, 450), (450, 700), (700, 950), (950, 1100)))
  }

  // RxSwift: testRetryCount_Basic. The third attempt's failure is let through.
  @Test func theLastAttemptsFailureIsDelivered() {
    let xs = fast()
    let observer = scheduler.start { xs.retry(3) }
    observer.assertEvents(
      [205, 225, 245].flatMap { start in
        [1, 2, 3].map { value in .next(.seconds(start + (value - 1) * 5), value) }
      } + [.error(.seconds(260), Self.failure)]
    )
    xs.assertSubscriptions(windows((200, 220), (220, 240), (240, 260)))
  }

  // RxSwift: testRetryCount_Dispose, testRetryCount_Infinite (the same case twice)
  @Test func disposingEndsTheCurrentAttempt() {
    let xs = fast()
    let observer = scheduler.start(disposed: .seconds(231)) { xs.retry(3) }
    observer.assertEvents([
      .next(.seconds(205), 1), .next(.seconds(210), 2), .next(.seconds(215), 3),
      .next(.seconds(225), 1), .next(.seconds(230), 2),
    ])
    xs.assertSubscriptions(windows((200, 220), (220, 231)))
  }

  // RxSwift: testRetry_tailRecursiveOptimizationsTest. A source that fails while it is being
  // subscribed to is retried without recursion, and what it sends after its failure is dropped.
  @Test func aSynchronousFailureIsRetriedInALoop() {
    let attempts = Counter()
    let source = Observable<Int, TestError>.create { observer in
      observer.onNext(0)
      observer.onNext(1)
      observer.onNext(2)
      if attempts.increment() < 2 {
        observer.onError(Self.failure)
      }
      observer.onNext(3)
      observer.onNext(4)
      observer.onNext(5)
      observer.onCompleted()
      return Disposables.create()
    }
    let events = Recorder<StreamEvent<Int, TestError>>()
    source.retry().subscribe { events.append($0) }
    #expect(events.values == [0, 1, 2, 0, 1, 2, 3, 4, 5].map { .next($0) } + [.completed])
  }

  // RxSwift: testRetryReleasesResourcesOnComplete, testRetryReleasesResourcesOnError. The
  // suite's resource check fails if anything is left alive.
  @Test func releasesEverythingOnCompletionAndFailure() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.just(1).retry().subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.error(Self.failure).retry(1).subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
