import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's scan cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+ScanTests.swift),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows. RxSwift's `scan(seed, accumulator: +)` is spelled `scan(seed, +)` here.
//
// Not carried here: the six `testScan_Into_…` cases, which accumulate in place
// (`scan(into:accumulator:)` with an `inout` accumulator), a form Cascade does not have; and
// `testScan_Seed_AccumulatorThrows` and `testScan2ReleasesResourcesOnError`, whose accumulators
// throw: Cascade's `scan` takes an accumulator that cannot (a stream's failures are typed, and
// work that can fail belongs in a step of the stream's failure type).
@Suite(.checksResources)
struct ScanConformanceTests {
  static let failure = RxSwiftInputs.failure
  static let seed = 42
  let scheduler = TestScheduler()

  /// A value before the subscription, which no case sees.
  static let early: Recorded<StreamEvent<Int, TestError>> = .next(.seconds(150), 1)

  // RxSwift: testScan_Seed_Never
  @Test func aSourceThatNeverEnds() {
    let source = scheduler.createHotObservable([
      Recorded<StreamEvent<Int, TestError>>.next(.zero, 0)
    ])
    let observer = scheduler.start { source.scan(Self.seed, +) }
    observer.assertEvents([])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(1000))])
  }

  // RxSwift: testScan_Seed_Empty, testScan_Seed_Throw (the seed alone is never emitted)
  @Test(arguments: [
    Recorded<StreamEvent<Int, TestError>>.completed(.seconds(250)),
    .error(.seconds(250), failure),
  ])
  func aSourceWithoutValues(_ ending: Recorded<StreamEvent<Int, TestError>>) {
    let source = scheduler.createHotObservable([Self.early, ending])
    let observer = scheduler.start { source.scan(Self.seed, +) }
    observer.assertEvents([ending])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testScan_Seed_Return
  @Test func oneValue() {
    let source = scheduler.createHotObservable([
      Self.early, .next(.seconds(220), 2), .completed(.seconds(250)),
    ])
    let observer = scheduler.start { source.scan(Self.seed, +) }
    observer.assertEvents([.next(.seconds(220), Self.seed + 2), .completed(.seconds(250))])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testScan_Seed_SomeData
  @Test func eachValueEmitsTheRunningResult() {
    let source = scheduler.createHotObservable([
      Self.early, .next(.seconds(210), 2), .next(.seconds(220), 3), .next(.seconds(230), 4),
      .next(.seconds(240), 5), .completed(.seconds(250)),
    ])
    let observer = scheduler.start { source.scan(Self.seed, +) }
    observer.assertEvents([
      .next(.seconds(210), Self.seed + 2), .next(.seconds(220), Self.seed + 2 + 3),
      .next(.seconds(230), Self.seed + 2 + 3 + 4), .next(.seconds(240), Self.seed + 2 + 3 + 4 + 5),
      .completed(.seconds(250)),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(250))])
  }

  // RxSwift: testScanReleasesResourcesOnComplete, testScan1ReleasesResourcesOnError (the suite's
  // resource check fails a test that leaves a subscription behind).
  @Test func scanReleasesItsResources() {
    let completed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.just(1).scan(0, +).subscribe { completed.append($0) }
    let failed = Recorder<StreamEvent<Int, TestError>>()
    _ = Observable<Int, TestError>.error(Self.failure).scan(0, +).subscribe { failed.append($0) }
    #expect(completed.values == [.next(1), .completed])
    #expect(failed.values == [.error(Self.failure)])
  }
}
