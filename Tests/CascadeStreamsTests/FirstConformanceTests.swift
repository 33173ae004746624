import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's first cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+PrimitiveSequenceTest.swift, `testFirst_…`), re-expressed on
// Cascade's `TestScheduler`: the same hot inputs, times, expected events and subscription
// windows.
//
// RxSwift's `first()` is a `Single<Element?>` whose value is `nil` for an empty stream, and its
// cases read it through `map { $0 ?? -1 }`. Cascade's `first()` is a stream of at most one
// value: the same as `take(1)`. The cases with a first value carry over unchanged; in
// `testFirst_Empty` Cascade differs on purpose and completes without a value where RxSwift emits
// `nil` (see that test).
@Suite(.checksResources)
struct FirstConformanceTests {
  static let failure = RxSwiftInputs.failure
  let scheduler = TestScheduler()

  /// A value before the subscription, which no case sees.
  static let early: Recorded<StreamEvent<Int, TestError>> = .next(.seconds(150), 1)

  // RxSwift: testFirst_Empty. Cascade differs on purpose: RxSwift's `first()` emits `nil` at
  // 250 (read as -1) and completes; Cascade's completes at 250 without a value, so that a stream
  // and its first value have the same element type; `first().asMaybe()` is the trait of one
  // value or none.
  @Test func anEmptySourceCompletesWithoutAValue() {
    let source = scheduler.createHotObservable([
      Self.early, .completed(.seconds(250)), .error(.seconds(260), Self.failure),
    ])
    let observer = scheduler.start { source.first() }
    observer.assertEvents([.completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testFirst_One, testFirst_Many
  @Test(arguments: [
    [Recorded<StreamEvent<Int, TestError>>.next(.seconds(210), 2)],
    [.next(.seconds(210), 2), .next(.seconds(220), 3)],
  ])
  func theFirstOfTheValues(_ values: [Recorded<StreamEvent<Int, TestError>>]) {
    let source = scheduler.createHotObservable(
      [Self.early] + values + [.completed(.seconds(250)), .error(.seconds(260), Self.failure)]
    )
    let observer = scheduler.start { source.first() }
    observer.assertEvents([.next(.seconds(210), 2), .completed(.seconds(210))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: testFirst_ManyWithoutCompletion (its events are listed out of order; they play in
  // the order of their times)
  @Test func theFirstValueOfASourceThatNeverEnds() {
    let source = scheduler.createHotObservable([
      Self.early, .next(.seconds(160), 2), .next(.seconds(280), 3), .next(.seconds(250), 4),
      .next(.seconds(300), 5),
    ])
    let observer = scheduler.start { source.first() }
    observer.assertEvents([.next(.seconds(250), 4), .completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testFirst_Error
  @Test func aFailureBeforeAnyValue() {
    let source = scheduler.createHotObservable([Self.early, .error(.seconds(210), Self.failure)])
    let observer = scheduler.start { source.first() }
    observer.assertEvents([.error(.seconds(210), Self.failure)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(210))])
  }

  // RxSwift: testFirstReleasesResourcesOnComplete, testFirstReleasesResourcesOnError1 (the
  // suite's resource check fails a test that leaves a subscription behind).
  @Test func firstReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).first().subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).first().subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
