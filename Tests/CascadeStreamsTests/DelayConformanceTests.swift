import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's delay cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+DelayTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows. RxSwift's cases on a real scheduler (`testDelay_TimeSpan_Real_…`,
// `…_DefaultScheduler`), which send from another thread and wait with the wall clock, run here
// on virtual time with the same inputs and the same expectations; where RxSwift's `Real_Error3`
// sends the failure from another thread while a value is being delivered, here the observer
// sends it from inside that delivery.
@Suite(.checksResources)
struct DelayConformanceTests {
  typealias Events = [Recorded<StreamEvent<Int, TestError>>]

  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// RxSwift's input: 2, 3 and 4 at 250, 350 and 450, then `end` at 550.
  static func values(then end: StreamEvent<Int, TestError>) -> Events {
    [
      .next(.seconds(150), 1), .next(.seconds(250), 2), .next(.seconds(350), 3),
      .next(.seconds(450), 4), Recorded(time: .seconds(550), value: end),
    ]
  }

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  // RxSwift: testDelay_TimeSpan_Simple1 (100), …Simple2 (50), …Simple3 (150),
  // testDelay_TimeSpan_Positive (42). Every value and the completion move later by the delay.
  @Test(arguments: [100, 50, 150, 42])
  func valuesAndCompletionAreShifted(delay: Int) {
    let xs = scheduler.createHotObservable(Self.values(then: .completed))
    let observer = scheduler.start { xs.delay(.seconds(delay), scheduler: scheduler) }
    observer.assertEvents(
      Self.values(then: .completed).dropFirst().map {
        Recorded(time: $0.time + .seconds(delay), value: $0.value)
      }
    )
    xs.assertSubscriptions(window(200, 550))
  }

  // RxSwift: testDelay_TimeSpan_Error. A failure is not delayed.
  @Test func aFailureIsDeliveredAtOnce() {
    let xs: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 1), .error(.seconds(250), Self.failure),
    ])
    let observer = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
    observer.assertEvents([.error(.seconds(250), Self.failure)])
    xs.assertSubscriptions(window(200, 250))
  }

  // RxSwift: testDelay_TimeSpan_Completed
  @Test func aCompletionIsDelayed() {
    let xs: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 1), .completed(.seconds(250)),
    ])
    let observer = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
    observer.assertEvents([.completed(.seconds(400))])
    xs.assertSubscriptions(window(200, 250))
  }

  // RxSwift: testDelay_TimeSpan_Error1, testDelay_TimeSpan_Error2. Values still waiting when the
  // failure arrives are dropped.
  @Test(arguments: [50, 150])
  func aFailureDropsTheValuesStillWaiting(delay: Int) {
    let xs = scheduler.createHotObservable(Self.values(then: .error(Self.failure)))
    let observer = scheduler.start { xs.delay(.seconds(delay), scheduler: scheduler) }
    let delivered: Events = [(250, 2), (350, 3), (450, 4)]
      .filter { $0.0 + delay < 550 }
      .map { .next(.seconds($0.0 + delay), $0.1) }
    observer.assertEvents(delivered + [.error(.seconds(550), Self.failure)])
    xs.assertSubscriptions(window(200, 550))
  }

  // RxSwift: testDelay_TimeSpan_Real_Simple
  @Test func valuesSentTogetherAreDeliveredTogetherLater() {
    let subject = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = subject.delay(.milliseconds(10), scheduler: scheduler)
      .subscribe { events.append($0) }
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    subject.onCompleted()
    #expect(events.values.isEmpty)
    scheduler.run()
    #expect(events.values == [.next(1), .next(2), .next(3), .completed])
    subscription.dispose()
  }

  // RxSwift: testDelay_TimeSpan_Real_Error1
  @Test func aFailureRightAfterValuesIsDelivered() {
    let subject = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = subject.delay(.milliseconds(10), scheduler: scheduler)
      .subscribe { events.append($0) }
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    subject.onError(Self.failure)
    scheduler.run()
    #expect(events.values == [.error(Self.failure)])
    subscription.dispose()
  }

  // RxSwift: testDelay_TimeSpan_Real_Error2
  @Test func aFailureAfterADeliveredValue() {
    let subject = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = subject.delay(.milliseconds(10), scheduler: scheduler)
      .subscribe { events.append($0) }
    subject.onNext(1)
    scheduler.run()
    subject.onError(Self.failure)
    #expect(events.values == [.next(1), .error(Self.failure)])
    subscription.dispose()
  }

  // RxSwift: testDelay_TimeSpan_Real_Error3. The failure arrives while the value is being
  // delivered, and is delivered after it.
  @Test func aFailureDuringADeliveryFollowsIt() {
    let subject = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = subject.delay(.milliseconds(10), scheduler: scheduler)
      .subscribe { event in
        events.append(event)
        if event == .next(1) { subject.onError(Self.failure) }
      }
    subject.onNext(1)
    scheduler.run()
    #expect(events.values == [.next(1), .error(Self.failure)])
    subscription.dispose()
  }

  // RxSwift: testDelay_TimeSpan_DefaultScheduler
  @Test func aShortDelay() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.just(1).delay(.milliseconds(1), scheduler: scheduler)
      .subscribe { events.append($0) }
    scheduler.run()
    #expect(events.values == [.next(1), .completed])
  }

  // RxSwift: testDelayReleasesResourcesOnComplete, testDelayReleasesResourcesOnError. The
  // suite's resource check fails if anything is left alive once the scheduler has run.
  @Test func releasesEverythingOnCompletionAndFailure() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.just(1).delay(.seconds(100), scheduler: scheduler)
      .subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.error(Self.failure).delay(.seconds(100), scheduler: scheduler)
      .subscribe { failed.append($0) }
    scheduler.run()
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
