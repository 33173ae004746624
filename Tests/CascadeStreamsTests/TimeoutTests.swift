import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct TimeoutTests {
  @Test func failsWhenTheSourceStaysSilent() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(
      Observable<Int, TestError>.never()
        .timeout(.seconds(5), scheduler: scheduler, error: TestError("timeout"))
    )
    #expect(observer.events == [.error(.seconds(5), TestError("timeout"))])
  }

  @Test func eachValueRestartsTheTimer() {
    let scheduler = TestScheduler()
    let source: Observable<Int, TestError> = scheduler.timeline([
      .next(.seconds(3), 1),
      .next(.seconds(7), 2),
      .next(.seconds(11), 3),
      .completed(.seconds(15)),
    ])
    let observer = scheduler.record(
      source.timeout(.seconds(5), scheduler: scheduler, error: TestError("timeout"))
    )
    #expect(
      observer.events == [
        .next(.seconds(3), 1),
        .next(.seconds(7), 2),
        .next(.seconds(11), 3),
        .completed(.seconds(15)),
      ]
    )
  }

  @Test func firesAfterAGapBetweenValues() {
    let scheduler = TestScheduler()
    let source: Observable<Int, TestError> = scheduler.timeline([
      .next(.seconds(3), 1),
      .next(.seconds(10), 2),
    ])
    let observer = scheduler.record(
      source.timeout(.seconds(5), scheduler: scheduler, error: TestError("timeout"))
    )
    #expect(
      observer.events == [
        .next(.seconds(3), 1),
        .error(.seconds(8), TestError("timeout")),
      ]
    )
  }

  @Test func switchesToTheOtherStream() {
    let scheduler = TestScheduler()
    let disposals = TimeLog()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(2), 1),
      .next(.seconds(20), 99),
    ])
    let watched = Observable<Int, Never>.create { observer in
      let subscription = source.subscribe(observer)
      return Disposables.create {
        disposals.append(scheduler.now)
        subscription.dispose()
      }
    }
    let other: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 10),
      .next(.seconds(2), 11),
      .completed(.seconds(3)),
    ])
    let observer = scheduler.record(
      watched.timeout(.seconds(5), scheduler: scheduler, other: other)
    )
    #expect(
      observer.events == [
        .next(.seconds(2), 1),
        .next(.seconds(8), 10),
        .next(.seconds(9), 11),
        .completed(.seconds(10)),
      ]
    )
    // The source is disposed when the timer runs out, at 7.
    #expect(disposals.times == [.seconds(7)])
  }

  @Test func failsWithTimeoutErrorForUntypedFailures() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(
      Observable<Int, any Error>.never().timeout(.seconds(10), scheduler: scheduler)
    )
    #expect(observer.events.count == 1)
    #expect(observer.events.first?.time == .seconds(10))
    let failure = observer.events.first?.value.failure
    #expect(failure as? TimeoutError == TimeoutError(dueTime: .seconds(10)))
  }

  @Test func terminationStopsTheTimer() {
    let scheduler = TestScheduler()
    let source: Observable<Int, TestError> = scheduler.timeline([
      .next(.seconds(1), 1),
      .completed(.seconds(2)),
    ])
    let observer = scheduler.createObserver(Int.self, failure: TestError.self)
    let subscription = source.timeout(
      .seconds(5),
      scheduler: scheduler,
      error: TestError("timeout")
    )
    .subscribe(observer)
    scheduler.advance(to: SchedulerInstant(offset: .seconds(2)))
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(10))
    #expect(observer.events == [.next(.seconds(1), 1), .completed(.seconds(2))])
    subscription.dispose()
  }
}
