import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's dematerialize cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+DematerializeTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs, times, expected events and subscription windows.
// RxSwift's two cases whose stream of events itself fails (`testDematerialize_Error`,
// `testDematerializeReleasesResourcesOnError`) have no counterpart: Cascade's `dematerialize()`
// takes a stream of events that cannot fail (`Failure == Never`), as a failure it carries is
// one of its values.
@Suite(.checksResources)
struct DematerializeConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  typealias Event = StreamEvent<Int, TestError>

  // RxSwift: testDematerialize_Range1
  @Test func theSourceCompletes() {
    let source: HotObservable<Event, Never> = scheduler.createHotObservable([
      .next(.seconds(150), .next(41)), .next(.seconds(210), .next(42)),
      .next(.seconds(220), .next(43)), .completed(.seconds(250)), .completed(.seconds(251)),
    ])
    let observer = scheduler.start { source.dematerialize() }
    observer.assertEvents([
      .next(.seconds(210), 42), .next(.seconds(220), 43), .completed(.seconds(250)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testDematerialize_Range2
  @Test func aCompletionValueCompletes() {
    let source: HotObservable<Event, Never> = scheduler.createHotObservable([
      .next(.seconds(150), .next(41)), .next(.seconds(210), .next(42)),
      .next(.seconds(220), .next(43)), .next(.seconds(230), .completed),
      .next(.seconds(231), .completed),
    ])
    let observer = scheduler.start { source.dematerialize() }
    observer.assertEvents([
      .next(.seconds(210), 42), .next(.seconds(220), 43), .completed(.seconds(230)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(230))])
  }

  // RxSwift: testDematerialize_Error2
  @Test func aFailureValueFails() {
    let source: HotObservable<Event, Never> = scheduler.createHotObservable([
      .next(.seconds(150), .next(41)), .next(.seconds(210), .next(42)),
      .next(.seconds(220), .next(43)), .next(.seconds(230), .error(Self.failure)),
      .next(.seconds(231), .error(Self.failure)),
    ])
    let observer = scheduler.start { source.dematerialize() }
    observer.assertEvents([
      .next(.seconds(210), 42), .next(.seconds(220), 43), .error(.seconds(230), Self.failure),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(230))])
  }

  // RxSwift: testMaterialize_Dematerialize_Never
  @Test func aRoundTripOfASourceThatNeverEnds() {
    let observer = scheduler.start {
      Observable<Int, TestError>.never().materialize().dematerialize()
    }
    observer.assertEvents([])
  }

  // RxSwift: testMaterialize_Dematerialize_Empty, testMaterialize_Dematerialize_Return,
  // testMaterialize_Dematerialize_Throw
  @Test(
    arguments: [
      ([], [Recorded<Event>.completed(.seconds(250))]),
      ([.next(.seconds(210), 2)], [.next(.seconds(210), 2), .completed(.seconds(250))]),
      ([], [Recorded<Event>.error(.seconds(250), failure)]),
    ] as [([Recorded<Event>], [Recorded<Event>])]
  )
  func aRoundTrip(values: [Recorded<Event>], ending: [Recorded<Event>]) {
    let source = scheduler.createHotObservable([.next(.seconds(150), 1)] + values + ending)
    let observer = scheduler.start { source.materialize().dematerialize() }
    observer.assertEvents(values + ending)
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testDematerializeReleasesResourcesOnComplete1, …OnComplete2 (the suite's
  // resource check fails a test that leaves a subscription behind).
  @Test func dematerializeReleasesItsResources() {
    let events = Recorder<Event>()
    _ = Observable<Event, Never>.just(.next(1)).dematerialize().subscribe { events.append($0) }
    _ = Observable<Event, Never>.empty().dematerialize().subscribe { events.append($0) }
    #expect(events.values == [.next(1), .completed, .completed])
  }
}
