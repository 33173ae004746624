import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's withLatestFrom cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+WithLatestFromTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs, times, expected events and subscription windows.
//
// Left out: `testWithLatestFrom_Error3`, whose result selector throws. Cascade's `withLatestFrom`
// takes a selector that cannot throw: a stream's failures are typed, and work that can fail
// belongs in a step of the stream's failure type.
@Suite(.checksResources)
struct WithLatestFromConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  /// RxSwift's sampling stream: 1 to 10, of which 3 to 10 after the subscription at 200.
  static let numbers: [Recorded<StreamEvent<Int, TestError>>] = [
    .next(.seconds(90), 1), .next(.seconds(180), 2), .next(.seconds(250), 3),
    .next(.seconds(260), 4), .next(.seconds(310), 5), .next(.seconds(340), 6),
    .next(.seconds(410), 7), .next(.seconds(420), 8), .next(.seconds(470), 9),
    .next(.seconds(550), 10),
  ]

  /// The first six of `numbers`, the shorter sampling stream of RxSwift's `Simple2` and `Simple3`.
  static let fewerNumbers = Array(numbers.prefix(6))

  /// RxSwift's sampled stream of `Simple1`, `Error1` and the default overload's case.
  static let words: [Recorded<StreamEvent<String, TestError>>] = [
    .next(.seconds(255), "bar"), .next(.seconds(330), "foo"), .next(.seconds(350), "qux"),
    .completed(.seconds(400)),
  ]

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  // RxSwift: testWithLatestFrom_Simple1. The sampled stream's completion keeps its last value.
  @Test func eachValueTakesTheLatestOfTheOther() {
    let xs = scheduler.createHotObservable(Self.numbers + [.completed(.seconds(590))])
    let ys = scheduler.createHotObservable(Self.words)
    let observer = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" } }
    observer.assertEvents([
      .next(.seconds(260), "4bar"), .next(.seconds(310), "5bar"), .next(.seconds(340), "6foo"),
      .next(.seconds(410), "7qux"), .next(.seconds(420), "8qux"), .next(.seconds(470), "9qux"),
      .next(.seconds(550), "10qux"), .completed(.seconds(590)),
    ])
    xs.assertSubscriptions(window(200, 590))
    ys.assertSubscriptions(window(200, 400))
  }

  // RxSwift: testWithLatestFrom_TwoObservablesWithImmediateValues
  @Test func currentValuesOfBothAreCombinedAtTheSubscription() {
    let xs = BehaviorSubject<Int, Never>(3)
    let ys = BehaviorSubject<Int, Never>(5)
    let observer = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" }.take(1) }
    observer.assertEvents([.next(.seconds(200), "35"), .completed(.seconds(200))])
  }

  // RxSwift: testWithLatestFrom_Simple2. The sampling stream's completion ends the result and
  // lets go of the sampled stream.
  @Test func completionOfTheSamplingStreamEndsIt() {
    let xs = scheduler.createHotObservable(Self.fewerNumbers + [.completed(.seconds(390))])
    let ys: HotObservable<String, TestError> = scheduler.createHotObservable([
      .next(.seconds(255), "bar"), .next(.seconds(330), "foo"), .next(.seconds(350), "qux"),
      .next(.seconds(370), "baz"), .completed(.seconds(400)),
    ])
    let observer = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" } }
    observer.assertEvents([
      .next(.seconds(260), "4bar"), .next(.seconds(310), "5bar"), .next(.seconds(340), "6foo"),
      .completed(.seconds(390)),
    ])
    xs.assertSubscriptions(window(200, 390))
    ys.assertSubscriptions(window(200, 390))
  }

  // RxSwift: testWithLatestFrom_Simple3
  @Test func aValueOfTheOtherBeforeTheFirstSampleIsUsed() {
    let xs = scheduler.createHotObservable(Self.fewerNumbers + [.completed(.seconds(390))])
    let ys: HotObservable<String, TestError> = scheduler.createHotObservable([
      .next(.seconds(245), "bar"), .next(.seconds(330), "foo"), .next(.seconds(350), "qux"),
      .next(.seconds(370), "baz"), .completed(.seconds(400)),
    ])
    let observer = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" } }
    observer.assertEvents([
      .next(.seconds(250), "3bar"), .next(.seconds(260), "4bar"), .next(.seconds(310), "5bar"),
      .next(.seconds(340), "6foo"), .completed(.seconds(390)),
    ])
    xs.assertSubscriptions(window(200, 390))
    ys.assertSubscriptions(window(200, 390))
  }

  // RxSwift: testWithLatestFrom_Error1
  @Test func failureOfTheSamplingStream() {
    let xs = scheduler.createHotObservable(Self.numbers + [.error(.seconds(590), Self.failure)])
    let ys = scheduler.createHotObservable(Self.words)
    let observer = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" } }
    observer.assertEvents([
      .next(.seconds(260), "4bar"), .next(.seconds(310), "5bar"), .next(.seconds(340), "6foo"),
      .next(.seconds(410), "7qux"), .next(.seconds(420), "8qux"), .next(.seconds(470), "9qux"),
      .next(.seconds(550), "10qux"), .error(.seconds(590), Self.failure),
    ])
    xs.assertSubscriptions(window(200, 590))
    ys.assertSubscriptions(window(200, 400))
  }

  // RxSwift: testWithLatestFrom_Error2
  @Test func failureOfTheSampledStream() {
    let xs = scheduler.createHotObservable(Self.fewerNumbers + [.completed(.seconds(390))])
    let ys: HotObservable<String, TestError> = scheduler.createHotObservable([
      .next(.seconds(255), "bar"), .next(.seconds(330), "foo"), .next(.seconds(350), "qux"),
      .error(.seconds(370), Self.failure),
    ])
    let observer = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" } }
    observer.assertEvents([
      .next(.seconds(260), "4bar"), .next(.seconds(310), "5bar"), .next(.seconds(340), "6foo"),
      .error(.seconds(370), Self.failure),
    ])
    xs.assertSubscriptions(window(200, 370))
    ys.assertSubscriptions(window(200, 370))
  }

  // RxSwift: testWithLatestFrom_MakeSureDefaultOverloadTakesSecondSequenceValues
  @Test func withoutASelectorTheOthersValueIsEmitted() {
    let xs = scheduler.createHotObservable(Self.numbers + [.completed(.seconds(590))])
    let ys = scheduler.createHotObservable(Self.words)
    let observer = scheduler.start { xs.withLatestFrom(ys) }
    observer.assertEvents([
      .next(.seconds(260), "bar"), .next(.seconds(310), "bar"), .next(.seconds(340), "foo"),
      .next(.seconds(410), "qux"), .next(.seconds(420), "qux"), .next(.seconds(470), "qux"),
      .next(.seconds(550), "qux"), .completed(.seconds(590)),
    ])
    xs.assertSubscriptions(window(200, 590))
    ys.assertSubscriptions(window(200, 400))
  }

  // RxSwift: testWithLatestFromReleasesResourcesOnComplete1, …OnComplete2, …OnError1,
  // …OnError2. A delayed or timed-out stream on either side; the suite's resource check fails if
  // anything is left alive once the scheduler has run.
  @Test func releasesEverythingOnCompletionAndFailure() {
    let one = Observable<Int, TestError>.just(1)
    let never = Observable<Int, TestError>.never()
    let delayed = one.delay(.seconds(20), scheduler: scheduler)
    let timedOut = never.timeout(.seconds(20), scheduler: scheduler, error: Self.failure)
    let streams = [
      delayed.withLatestFrom(one), one.withLatestFrom(delayed),
      timedOut.withLatestFrom(one), one.withLatestFrom(timedOut),
    ]
    let recorders = streams.map { stream in
      let events = Recorder<StreamEvent<Int, TestError>>()
      stream.subscribe { events.append($0) }
      return events
    }
    scheduler.run()
    #expect(
      recorders.map(\.values) == [
        [.next(1), .completed], [.completed], [.error(Self.failure)], [.completed],
      ]
    )
  }
}
