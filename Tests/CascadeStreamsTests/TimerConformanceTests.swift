import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's timer and interval cases (ReactiveX/RxSwift,
// Tests/RxSwiftTests/Observable+TimerTests.swift), re-expressed on Cascade's `TestScheduler`:
// the same due times, periods and expected events. `test_IntervalWithRealScheduler` runs here on
// virtual time. `testInterval_TimeSpan_Zero` and `testInterval_TimeSpan_Zero_DefaultScheduler`
// have no counterpart: Cascade's `interval` and periodic `timer` take a positive period (a zero
// one is a precondition failure), where RxSwift's emit once per tick of the scheduler's clock.
@Suite(.checksResources)
struct TimerConformanceTests {
  let scheduler = TestScheduler()

  // RxSwift: testTimer_Basic
  @Test func aTimerEmitsZeroAndCompletes() {
    let observer = scheduler.start {
      Observable<Int, Never>.timer(.seconds(100), scheduler: scheduler)
    }
    observer.assertEvents([.next(.seconds(300), 0), .completed(.seconds(300))])
  }

  // RxSwift: testTimerReleasesResourcesOnComplete (the suite's resource check fails a test that
  // leaves a subscription behind).
  @Test func aTimerReleasesItsResources() {
    let events = Recorder<StreamEvent<Int, Never>>()
    _ = Observable<Int, Never>.timer(.seconds(100), scheduler: scheduler)
      .subscribe { events.append($0) }
    scheduler.run()
    #expect(events.values == [.next(0), .completed])
  }

  // RxSwift: testInterval_TimeSpan_Basic
  @Test func anIntervalTicksUntilDisposed() {
    let observer = scheduler.start {
      Observable<Int, Never>.interval(.seconds(100), scheduler: scheduler)
    }
    observer.assertEvents(
      (0...6).map { tick in .next(.seconds(300 + 100 * tick), tick) }
    )
  }

  // RxSwift: testInterval_TimeSpan_Disposed
  @Test func anIntervalDisposedBeforeItsFirstTick() {
    let observer = scheduler.start {
      Observable<Int, Never>.interval(.seconds(1000), scheduler: scheduler)
    }
    observer.assertEvents([])
  }

  // RxSwift: test_IntervalWithRealScheduler (on virtual time: two ticks a second apart)
  @Test func twoTicksOfAnInterval() {
    let observer = scheduler.start {
      Observable<Int, Never>.interval(.seconds(1), scheduler: scheduler).take(2)
    }
    observer.assertEvents([
      .next(.seconds(201), 0), .next(.seconds(202), 1), .completed(.seconds(202)),
    ])
  }
}
