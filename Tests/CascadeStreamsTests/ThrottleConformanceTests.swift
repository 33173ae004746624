import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's throttle cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+ThrottleTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows. RxSwift writes most cases twice, with `latest: false`
// (`test_ThrottleTimeSpan_NotLatest_…`) and with the default `latest: true`
// (`test_ThrottleTimeSpan_…`); here they are one test run with both. RxSwift's cases on a real
// scheduler (`…WithRealScheduler…`), which time the run with the wall clock, run here on virtual
// time: the time they measure is when the completion arrives.
//
// Deliberate difference, in the cases with `latest` whose input has a value (6) at 410, just as
// the window opened at 210 ends: RxSwift's value arrives before the window's timer runs, and
// RxSwift emits it and drops the value the window kept (5). Cascade ends the window first, with
// the value it kept, and keeps 6 for the next window (where 7 replaces it), so the value that
// survives does not depend on which of the two runs first at the same instant. The tests say
// where, with RxSwift's expectation beside Cascade's.
@Suite(.checksResources)
struct ThrottleConformanceTests {
  typealias Events = [Recorded<StreamEvent<Int, TestError>>]

  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// RxSwift's input: 2 to 7 after the subscription at 200, then `end`.
  static func values(then end: Events) -> Events {
    [
      .next(.seconds(150), 1), .next(.seconds(210), 2), .next(.seconds(250), 3),
      .next(.seconds(310), 4), .next(.seconds(350), 5), .next(.seconds(410), 6),
      .next(.seconds(450), 7),
    ] + end
  }

  func throttled(_ xs: HotObservable<Int, TestError>, latest: Bool) -> Observable<Int, TestError> {
    xs.throttle(.seconds(200), latest: latest, scheduler: scheduler)
  }

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  // RxSwift: test_ThrottleTimeSpan_NotLatest_Completed, test_ThrottleTimeSpan_Completed. With
  // `latest`, the value kept at the completion (7) is delivered when its window ends, and the
  // completion right after it. Differs with `latest`: RxSwift emits 6 at 410, not 5.
  @Test(arguments: [false, true])
  func completion(latest: Bool) {
    let xs = scheduler.createHotObservable(Self.values(then: [.completed(.seconds(500))]))
    let observer = scheduler.start { throttled(xs, latest: latest) }
    observer.assertEvents(
      latest
        ? [
          .next(.seconds(210), 2), .next(.seconds(410), 5), .next(.seconds(610), 7),
          .completed(.seconds(610)),
        ]
        : [.next(.seconds(210), 2), .next(.seconds(410), 6), .completed(.seconds(500))]
    )
    xs.assertSubscriptions(window(200, 500))
  }

  // RxSwift: test_ThrottleTimeSpan_CompletedAfterDueTime. Differs: RxSwift emits 6 at 410, not 5.
  @Test func completionAfterTheKeptValue() {
    let xs = scheduler.createHotObservable(Self.values(then: [.completed(.seconds(900))]))
    let observer = scheduler.start { throttled(xs, latest: true) }
    observer.assertEvents([
      .next(.seconds(210), 2), .next(.seconds(410), 5), .next(.seconds(610), 7),
      .completed(.seconds(900)),
    ])
    xs.assertSubscriptions(window(200, 900))
  }

  // RxSwift: test_ThrottleTimeSpan_NotLatest_Never, test_ThrottleTimeSpan_Never
  @Test(arguments: [false, true])
  func aSourceThatNeverEnds(latest: Bool) {
    let xs: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 0)
    ])
    let observer = scheduler.start { throttled(xs, latest: latest) }
    observer.assertEvents([])
    xs.assertSubscriptions(window(200, 1000))
  }

  // RxSwift: test_ThrottleTimeSpan_NotLatest_Empty, test_ThrottleTimeSpan_Empty
  @Test(arguments: [false, true])
  func anEmptySource(latest: Bool) {
    let xs: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 0), .completed(.seconds(500)),
    ])
    let observer = scheduler.start { throttled(xs, latest: latest) }
    observer.assertEvents([.completed(.seconds(500))])
    xs.assertSubscriptions(window(200, 500))
  }

  // RxSwift: test_ThrottleTimeSpan_NotLatest_Error, test_ThrottleTimeSpan_Error. A failure is
  // delivered at once; what follows it is not.
  @Test(arguments: [false, true])
  func failure(latest: Bool) {
    let xs = scheduler.createHotObservable(
      Array(Self.values(then: []).prefix(5)) + [
        .error(.seconds(410), Self.failure), .next(.seconds(450), 7), .completed(.seconds(500)),
      ]
    )
    let observer = scheduler.start { throttled(xs, latest: latest) }
    observer.assertEvents([.next(.seconds(210), 2), .error(.seconds(410), Self.failure)])
    xs.assertSubscriptions(window(200, 410))
  }

  // RxSwift: test_ThrottleTimeSpan_NotLatest_NoEnd, test_ThrottleTimeSpan_NoEnd. Differs with
  // `latest`: RxSwift emits 6 at 410, not 5.
  @Test(arguments: [false, true])
  func aSourceThatDoesNotEnd(latest: Bool) {
    let xs = scheduler.createHotObservable(Self.values(then: []))
    let observer = scheduler.start { throttled(xs, latest: latest) }
    observer.assertEvents(
      latest
        ? [.next(.seconds(210), 2), .next(.seconds(410), 5), .next(.seconds(610), 7)]
        : [.next(.seconds(210), 2), .next(.seconds(410), 6)]
    )
    xs.assertSubscriptions(window(200, 1000))
  }

  /// The spellings of two seconds in RxSwift's real-scheduler cases.
  static let twoSeconds: [Duration] = [
    .seconds(2), .milliseconds(2000), .microseconds(2_000_000), .nanoseconds(2_000_000_000),
  ]

  // RxSwift: test_ThrottleTimeSpan_WithRealScheduler_seconds, …_milliseconds, …_microseconds,
  // …_nanoseconds. The second value is delivered, and the stream completes, when the window
  // ends, two seconds in.
  @Test(arguments: twoSeconds)
  func synchronousValuesWithLatest(window: Duration) {
    let events = Recorder<Recorded<StreamEvent<Int, Never>>>()
    Observable<Int, Never>.from([0, 1]).throttle(window, scheduler: scheduler)
      .subscribe { [scheduler] in events.append(Recorded(time: scheduler.now.offset, value: $0)) }
    scheduler.run()
    #expect(events.values == [.next(.zero, 0), .next(.seconds(2), 1), .completed(.seconds(2))])
  }

  // RxSwift: test_ThrottleTimeSpan_NotLatest_WithRealScheduler. The second value is dropped and
  // the stream completes at once.
  @Test func synchronousValuesWithoutLatest() {
    let events = Recorder<Recorded<StreamEvent<Int, Never>>>()
    Observable<Int, Never>.from([0, 1]).throttle(.seconds(2), latest: false, scheduler: scheduler)
      .subscribe { [scheduler] in events.append(Recorded(time: scheduler.now.offset, value: $0)) }
    scheduler.run()
    #expect(events.values == [.next(.zero, 0), .completed(.zero)])
  }

  // RxSwift: testThrottleNotLatestReleasesResourcesOnComplete, …OnError,
  // testThrottleLatestReleasesResourcesOnComplete, …OnError. The suite's resource check fails if
  // anything is left alive once the scheduler has run.
  @Test(arguments: [false, true])
  func releasesEverythingOnCompletionAndFailure(latest: Bool) {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.just(1).throttle(.zero, latest: latest, scheduler: scheduler)
      .subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.error(Self.failure)
      .throttle(.zero, latest: latest, scheduler: scheduler)
      .subscribe { failed.append($0) }
    scheduler.run()
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
