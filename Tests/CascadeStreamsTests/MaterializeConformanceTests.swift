import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's materialize cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+MaterializeTests.swift), re-expressed on Cascade's
// `TestScheduler`: the same hot inputs, times, expected events and subscription windows.
@Suite(.checksResources)
struct MaterializeConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  // RxSwift: testMaterializeNever
  @Test func aSourceThatNeverEnds() {
    let observer = scheduler.start { Observable<Int, TestError>.never().materialize() }
    observer.assertEvents([])
  }

  // RxSwift: testMaterializeEmpty
  @Test func anEmptySource() {
    let source: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .completed(.seconds(201)), .completed(.seconds(202)),
    ])
    let observer = scheduler.start { source.materialize() }
    observer.assertEvents([.next(.seconds(201), .completed), .completed(.seconds(201))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(201))])
  }

  // RxSwift: testMaterializeEmits
  @Test func aValueThenCompletion() {
    let source: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 1), .next(.seconds(210), 2), .completed(.seconds(250)),
      .completed(.seconds(251)),
    ])
    let observer = scheduler.start { source.materialize() }
    observer.assertEvents([
      .next(.seconds(210), .next(2)), .next(.seconds(250), .completed),
      .completed(.seconds(250)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testMaterializeThrow
  @Test func aFailure() {
    let source: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 1), .error(.seconds(250), Self.failure),
      .error(.seconds(251), Self.failure),
    ])
    let observer = scheduler.start { source.materialize() }
    observer.assertEvents([
      .next(.seconds(250), .error(Self.failure)), .completed(.seconds(250)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testMaterializeReleasesResourcesOnComplete1, …OnComplete2,
  // testMaterializeReleasesResourcesOnError (the suite's resource check fails a test that
  // leaves a subscription behind).
  @Test func materializeReleasesItsResources() {
    let events = Recorder<StreamEvent<StreamEvent<Int, TestError>, Never>>()
    _ = Observable<Int, TestError>.just(1).materialize().subscribe { events.append($0) }
    _ = Observable<Int, TestError>.empty().materialize().subscribe { events.append($0) }
    _ = Observable<Int, TestError>.error(Self.failure).materialize()
      .subscribe { events.append($0) }
    #expect(
      events.values == [
        .next(.next(1)), .next(.completed), .completed,
        .next(.completed), .completed,
        .next(.error(Self.failure)), .completed,
      ]
    )
  }
}
