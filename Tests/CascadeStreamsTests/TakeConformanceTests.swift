import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's take cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+TakeTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows.
//
// The file's second half takes for a duration (`take(for:scheduler:)`: `testTake_TakeZero`,
// `testTake_Some`, `testTake_TakeLate`, `testTake_TakeError`, `testTake_TakeNever`,
// `testTake_TakeTwice1`, `testTake_TakeDefault`, `testTakeTimeReleasesResourcesOnComplete`,
// `testTakeTimeReleasesResourcesOnError`); Cascade has no such operator, so those nine cases
// are not carried here.
@Suite(.checksResources)
struct TakeConformanceTests {
  static let failure = RxSwiftInputs.failure
  let scheduler = TestScheduler()

  /// One of RxSwift's cases on its seventeen values: how many to take, how the input ends, and
  /// how many values the result emits before it ends (when its subscription ends too).
  struct Ending: Sendable, CustomTestStringConvertible {
    var rxSwift: String
    var count: Int
    var input: Recorded<StreamEvent<Int, TestError>>
    var taken: Int
    var end: Recorded<StreamEvent<Int, TestError>>

    var testDescription: String { rxSwift }
  }

  static let endings: [Ending] = [
    Ending(
      rxSwift: "testTake_Complete_After",
      count: 20,
      input: .completed(.seconds(690)),
      taken: 17,
      end: .completed(.seconds(690))
    ),
    Ending(
      rxSwift: "testTake_Complete_Same",
      count: 17,
      input: .completed(.seconds(690)),
      taken: 17,
      end: .completed(.seconds(630))
    ),
    Ending(
      rxSwift: "testTake_Complete_Before",
      count: 10,
      input: .completed(.seconds(690)),
      taken: 10,
      end: .completed(.seconds(415))
    ),
    Ending(
      rxSwift: "testTake_Error_After",
      count: 20,
      input: .error(.seconds(690), failure),
      taken: 17,
      end: .error(.seconds(690), failure)
    ),
    Ending(
      rxSwift: "testTake_Error_Same",
      count: 17,
      input: .error(.seconds(690), failure),
      taken: 17,
      end: .completed(.seconds(630))
    ),
    Ending(
      rxSwift: "testTake_Error_Before",
      count: 3,
      input: .error(.seconds(690), failure),
      taken: 3,
      end: .completed(.seconds(270))
    ),
  ]

  // RxSwift: testTake_Complete_After, testTake_Complete_Same, testTake_Complete_Before,
  // testTake_Error_After, testTake_Error_Same, testTake_Error_Before
  @Test(arguments: endings)
  func takeUpToACount(_ ending: Ending) {
    let source = scheduler.createHotObservable(RxSwiftInputs.values + [ending.input])
    let observer = scheduler.start { source.take(ending.count) }
    observer.assertEvents(
      Array(RxSwiftInputs.valuesAfterSubscription.prefix(ending.taken)) + [ending.end]
    )
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), ending.end.time)])
  }

  // RxSwift: testTake_Dispose_Before
  @Test func disposedBeforeTheCountIsReached() {
    let source = scheduler.createHotObservable(
      RxSwiftInputs.values + [.error(.seconds(690), Self.failure)]
    )
    let observer = scheduler.start(disposed: .seconds(250)) { source.take(3) }
    observer.assertEvents([.next(.seconds(210), 9), .next(.seconds(230), 13)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testTake_Dispose_After
  @Test func disposedAfterTheCountIsReached() {
    let source = scheduler.createHotObservable(
      RxSwiftInputs.values + [.error(.seconds(690), Self.failure)]
    )
    let observer = scheduler.start(disposed: .seconds(400)) { source.take(3) }
    observer.assertEvents([
      .next(.seconds(210), 9), .next(.seconds(230), 13), .next(.seconds(270), 7),
      .completed(.seconds(270)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(270))])
  }

  // RxSwift: testTake_0_DefaultScheduler
  @Test func takingNothingCompletesWithoutSubscribing() {
    let source = scheduler.createHotObservable(Array(RxSwiftInputs.values.prefix(4)))
    let observer = scheduler.start { source.take(0) }
    observer.assertEvents([.completed(.seconds(200))])
    source.assertSubscriptions([])
  }

  // RxSwift: testTake_Take1
  @Test func takeThreeOfASourceThatCompletesLater() {
    let source = scheduler.createHotObservable(
      Array(RxSwiftInputs.values.prefix(10)) + [.completed(.seconds(400))]
    )
    let observer = scheduler.start { source.take(3) }
    observer.assertEvents([
      .next(.seconds(210), 9), .next(.seconds(230), 13), .next(.seconds(270), 7),
      .completed(.seconds(270)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(270))])
  }

  // RxSwift: testTake_DecrementCountsFirst (a value sent back into the source from inside
  // `onNext` finds the count already spent)
  @Test func theCountIsSpentBeforeTheValueIsDelivered() {
    let relay = BehaviorRelay(value: false)
    let received = Recorder<Bool>()
    _ = relay.take(1).subscribe(onNext: { value in
      received.append(value)
      relay.accept(!value)
    })
    #expect(received.values == [false])
    #expect(relay.value == true)
  }

  // RxSwift: testTakeReleasesResourcesOnComplete, testTakeReleasesResourcesOnError (the suite's
  // resource check fails a test that leaves a subscription behind).
  @Test func takeReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.of(1, 2).take(1).subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).take(1).subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
