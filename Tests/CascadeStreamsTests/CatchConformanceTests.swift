import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's catch cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+CatchTests.swift, the
// `testCatch…` cases and the two resource cases spelled `tesCatch…`, which XCTest never runs),
// re-expressed on Cascade's `TestScheduler`: the same hot inputs, times, expected events and
// subscription windows.
//
// Left out: `testCatch_HandlerThrows`, whose handler throws. Cascade's `catch` takes a handler
// that cannot throw: it returns the recovery stream, which may fail with the result's own
// failure type. RxSwift's `catch(sequence:)` cases (`testCatchSequenceOf_…`,
// `testCatchAnySequence_…`) are for an operator Cascade does not have, and RxSwift has no
// `Observable` case for `catchAndReturn`.
@Suite(.checksResources)
struct CatchConformanceTests {
  static let failure = TestError("test")
  let scheduler = TestScheduler()

  func window(_ subscribed: Int, _ disposed: Int) -> [SubscriptionWindow] {
    [SubscriptionWindow(.seconds(subscribed), .seconds(disposed))]
  }

  // RxSwift: testCatch_ErrorSpecific_Caught. The handler runs when the failure arrives, and the
  // recovery stream is subscribed then.
  @Test func aFailureIsReplacedByTheRecoveryStream() {
    let o1: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(150), 1), .next(.seconds(210), 2), .next(.seconds(220), 3),
      .error(.seconds(230), Self.failure),
    ])
    let o2: HotObservable<Int, TestError> = scheduler.createHotObservable([
      .next(.seconds(240), 4), .completed(.seconds(250)),
    ])
    let handlerCalled = Recorder<Duration>()
    let observer = scheduler.start {
      o1.catch { [scheduler] _ in
        handlerCalled.append(scheduler.now.offset)
        return o2
      }
    }
    #expect(handlerCalled.values == [.seconds(230)])
    observer.assertEvents([
      .next(.seconds(210), 2), .next(.seconds(220), 3), .next(.seconds(240), 4),
      .completed(.seconds(250)),
    ])
    o1.assertSubscriptions(window(200, 230))
    o2.assertSubscriptions(window(230, 250))
  }

  // RxSwift: testCatchReleasesResourcesOnComplete, tesCatch1ReleasesResourcesOnError,
  // tesCatch2ReleasesResourcesOnError. The suite's resource check fails if anything is left
  // alive.
  @Test func releasesEverythingOnCompletionAndFailure() {
    let one = Observable<Int, TestError>.just(1)
    let failing = Observable<Int, TestError>.error(Self.failure)
    let streams = [
      one.catch { _ in one }, failing.catch { _ in one }, failing.catch { _ in failing },
    ]
    let recorders = streams.map { stream in
      let events = Recorder<StreamEvent<Int, TestError>>()
      stream.subscribe { events.append($0) }
      return events
    }
    #expect(
      recorders.map(\.values) == [
        [.next(1), .completed], [.next(1), .completed], [.error(Self.failure)],
      ]
    )
  }
}
