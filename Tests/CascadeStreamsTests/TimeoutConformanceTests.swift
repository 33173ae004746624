import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's timeout cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+TimeoutTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot and cold inputs, times, expected events
// and subscription windows. RxSwift's timeout without a fallback fails with `RxError.timeout`;
// Cascade's, on a stream whose failure type is `any Error`, fails with ``TimeoutError``, which
// names the due time. The cases with a fallback stream (`other:`) keep the typed `TestError`.
@Suite(.checksResources)
struct TimeoutConformanceTests {
  typealias Source = HotObservable<Int, any Error>

  static let failure = TestError("test")
  let scheduler = TestScheduler()

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  // MARK: Without a fallback

  // RxSwift: testTimeout_Empty
  @Test func aCompletionBeforeTheDueTime() {
    let xs: Source = scheduler.createHotObservable([
      .next(.seconds(150), 0), .completed(.seconds(300)),
    ])
    let observer = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
    observer.assertEvents([.completed(.seconds(300))])
    xs.assertSubscriptions(window(200, 300))
  }

  // RxSwift: testTimeout_Error
  @Test func aFailureBeforeTheDueTime() {
    let xs: Source = scheduler.createHotObservable([
      .next(.seconds(150), 0), .error(.seconds(300), Self.failure),
    ])
    let observer = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
    observer.assertEvents([.error(.seconds(300), Self.failure)])
    xs.assertSubscriptions(window(200, 300))
  }

  // RxSwift: testTimeout_Never
  @Test func aDueTimeAfterTheDisposal() {
    let xs: Source = scheduler.createHotObservable([.next(.seconds(150), 0)])
    let observer = scheduler.start { xs.timeout(.seconds(1000), scheduler: scheduler) }
    observer.assertEvents([])
    xs.assertSubscriptions(window(200, 1000))
  }

  // RxSwift: testTimeout_Duetime_Simple (gaps under 30), testTimeout_Duetime_Timeout_Exact (gaps
  // of exactly 30: a value at the due time wins)
  @Test(arguments: [[10, 25, 40, 50, 60], [10, 20, 50, 60, 70]])
  func valuesWithinTheDueTime(times: [Int]) {
    let xs: ColdObservable<Int, any Error> = scheduler.createColdObservable(
      zip(times, 42...45).map { .next(.seconds($0), $1) } + [.completed(.seconds(times[4]))]
    )
    let observer = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
    observer.assertEvents(
      zip(times, 42...45).map { .next(.seconds(200 + $0), $1) }
        + [.completed(.seconds(200 + times[4]))]
    )
    xs.assertSubscriptions(window(200, 200 + times[4]))
  }

  // RxSwift: testTimeout_Duetime_Timeout
  @Test func aGapLongerThanTheDueTimeFails() {
    let xs: ColdObservable<Int, any Error> = scheduler.createColdObservable([
      .next(.seconds(10), 42), .next(.seconds(20), 43), .next(.seconds(50), 44),
      .next(.seconds(60), 45), .completed(.seconds(70)),
    ])
    let observer = scheduler.start { xs.timeout(.seconds(25), scheduler: scheduler) }
    observer.assertEvents([
      .next(.seconds(210), 42), .next(.seconds(220), 43),
      .error(.seconds(245), TimeoutError(dueTime: .seconds(25))),
    ])
    xs.assertSubscriptions(window(200, 245))
  }

  // RxSwift: testTimeout_Duetime_Disposed
  @Test func disposingBeforeTheDueTime() {
    let xs: Source = scheduler.createHotObservable(
      zip([205, 210, 240, 280, 320, 350, 370, 420, 470], 1...9).map { .next(.seconds($0), $1) }
        + [.completed(.seconds(600))]
    )
    let observer = scheduler.start(disposed: .seconds(370)) {
      xs.timeout(.seconds(40), scheduler: scheduler)
    }
    observer.assertEvents(
      zip([205, 210, 240, 280, 320, 350, 370], 1...7).map { .next(.seconds($0), $1) }
    )
    xs.assertSubscriptions(window(200, 370))
  }

  // MARK: With a fallback

  /// RxSwift's fallback stream: -1, -2, -3 at 50, 200 and 310 after its subscription, completing
  /// at 320.
  func fallback() -> ColdObservable<Int, TestError> {
    scheduler.createColdObservable([
      .next(.seconds(50), -1), .next(.seconds(200), -2), .next(.seconds(310), -3),
      .completed(.seconds(320)),
    ])
  }

  func source(
    _ values: [(Int, Int)],
    then end: Recorded<StreamEvent<Int, TestError>>? = nil
  ) -> HotObservable<Int, TestError> {
    scheduler.createHotObservable(
      values.map { .next(.seconds($0.0), $0.1) } + (end.map { [$0] } ?? [])
    )
  }

  func timeout(
    _ xs: HotObservable<Int, TestError>,
    _ ys: ColdObservable<Int, TestError>
  ) -> Observable<Int, TestError> {
    xs.timeout(.seconds(100), scheduler: scheduler, other: ys.asObservable())
  }

  // RxSwift: testTimeout_TimeoutOccurs_1
  @Test func theFallbackTakesOverAfterTheDueTime() {
    let xs = source([(70, 1), (130, 2), (310, 3), (400, 4)], then: .completed(.seconds(500)))
    let ys = fallback()
    let observer = scheduler.start { timeout(xs, ys) }
    observer.assertEvents([
      .next(.seconds(350), -1), .next(.seconds(500), -2), .next(.seconds(610), -3),
      .completed(.seconds(620)),
    ])
    xs.assertSubscriptions(window(200, 300))
    ys.assertSubscriptions(window(300, 620))
  }

  // RxSwift: testTimeout_TimeoutOccurs_2
  @Test func theFallbackTakesOverAfterAGap() {
    let xs = source(
      [(70, 1), (130, 2), (240, 3), (310, 4), (430, 5)],
      then: .completed(.seconds(500))
    )
    let ys = fallback()
    let observer = scheduler.start { timeout(xs, ys) }
    observer.assertEvents([
      .next(.seconds(240), 3), .next(.seconds(310), 4), .next(.seconds(460), -1),
      .next(.seconds(610), -2), .next(.seconds(720), -3), .completed(.seconds(730)),
    ])
    xs.assertSubscriptions(window(200, 410))
    ys.assertSubscriptions(window(410, 730))
  }

  // RxSwift: testTimeout_TimeoutOccurs_Never
  @Test func aFallbackThatNeverEnds() {
    let xs = source(
      [(70, 1), (130, 2), (240, 3), (310, 4), (430, 5)],
      then: .completed(.seconds(500))
    )
    let ys: ColdObservable<Int, TestError> = scheduler.createColdObservable([])
    let observer = scheduler.start { timeout(xs, ys) }
    observer.assertEvents([.next(.seconds(240), 3), .next(.seconds(310), 4)])
    xs.assertSubscriptions(window(200, 410))
    ys.assertSubscriptions(window(410, 1000))
  }

  // RxSwift: testTimeout_TimeoutOccurs_Completed, testTimeout_TimeoutOccurs_Error. The source's
  // terminal event after the due time is not delivered.
  @Test(arguments: [false, true])
  func aTerminalEventAfterTheDueTime(fails: Bool) {
    let xs = source(
      [],
      then: fails ? .error(.seconds(500), Self.failure) : .completed(.seconds(500))
    )
    let ys: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(100), -1)
    ])
    let observer = scheduler.start { timeout(xs, ys) }
    observer.assertEvents([.next(.seconds(400), -1)])
    xs.assertSubscriptions(window(200, 300))
    ys.assertSubscriptions(window(300, 1000))
  }

  // RxSwift: testTimeout_TimeoutOccurs_NextIsError
  @Test func aFallbackThatFails() {
    let xs = source([(500, 42)])
    let ys: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .error(.seconds(100), Self.failure)
    ])
    let observer = scheduler.start { timeout(xs, ys) }
    observer.assertEvents([.error(.seconds(400), Self.failure)])
    xs.assertSubscriptions(window(200, 300))
    ys.assertSubscriptions(window(300, 400))
  }

  // RxSwift: testTimeout_TimeoutNotOccurs_Completed, testTimeout_TimeoutNotOccurs_Error
  @Test(arguments: [false, true])
  func aTerminalEventBeforeTheDueTime(fails: Bool) {
    let end: Recorded<StreamEvent<Int, TestError>> =
      fails ? .error(.seconds(250), Self.failure) : .completed(.seconds(250))
    let xs = source([], then: end)
    let ys: ColdObservable<Int, TestError> = scheduler.createColdObservable([
      .next(.seconds(100), -1)
    ])
    let observer = scheduler.start { timeout(xs, ys) }
    observer.assertEvents([end])
    xs.assertSubscriptions(window(200, 250))
    ys.assertSubscriptions([])
  }

  // RxSwift: testTimeout_TimeoutNotOccurs
  @Test func valuesWithinTheDueTimeNeverReachTheFallback() {
    let xs = source(
      [(70, 1), (130, 2), (240, 3), (320, 4), (410, 5)],
      then: .completed(.seconds(500))
    )
    let ys = fallback()
    let observer = scheduler.start { timeout(xs, ys) }
    observer.assertEvents([
      .next(.seconds(240), 3), .next(.seconds(320), 4), .next(.seconds(410), 5),
      .completed(.seconds(500)),
    ])
    xs.assertSubscriptions(window(200, 500))
    ys.assertSubscriptions([])
  }

  // RxSwift: testTimeoutReleasesResourcesOnComplete, testTimeoutReleasesResourcesOnError. The
  // suite's resource check fails if anything is left alive once the scheduler has run.
  @Test func releasesEverythingOnCompletionAndFailure() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.just(1)
      .timeout(.seconds(100), scheduler: scheduler, other: .empty())
      .subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.error(Self.failure)
      .timeout(.seconds(100), scheduler: scheduler, other: .empty())
      .subscribe { failed.append($0) }
    scheduler.run()
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
