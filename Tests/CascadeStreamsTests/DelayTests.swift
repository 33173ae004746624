import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct DelayTests {
  @Test func shiftsValuesAndCompletion() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(2), 2),
      .completed(.seconds(3)),
    ])
    let observer = scheduler.record(source.delay(.seconds(5), scheduler: scheduler))
    #expect(
      observer.events == [
        .next(.seconds(6), 1),
        .next(.seconds(7), 2),
        .completed(.seconds(8)),
      ]
    )
  }

  @Test func keepsOrderOfSimultaneousValues() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(
      Observable.from([1, 2, 3]).delay(.seconds(2), scheduler: scheduler).asObservable()
    )
    #expect(
      observer.events == [
        .next(.seconds(2), 1),
        .next(.seconds(2), 2),
        .next(.seconds(2), 3),
        .completed(.seconds(2)),
      ]
    )
  }

  @Test func deliversErrorsAtOnceAndDropsWaitingValues() {
    let scheduler = TestScheduler()
    let source: Observable<Int, TestError> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(4), 2),
      .error(.seconds(7), TestError("boom")),
    ])
    let observer = scheduler.record(source.delay(.seconds(5), scheduler: scheduler))
    // 1 is due at 6 and delivered; 2 would be due at 9 but the error at 7 comes first.
    #expect(
      observer.events == [
        .next(.seconds(6), 1),
        .error(.seconds(7), TestError("boom")),
      ]
    )
  }

  @Test func disposeCancelsWaitingEvents() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(2), 2),
      .completed(.seconds(3)),
    ])
    let observer = scheduler.record(
      source.delay(.seconds(5), scheduler: scheduler),
      until: .seconds(6.5)
    )
    #expect(observer.events == [.next(.seconds(6), 1)])
    #expect(scheduler.pendingCount == 0)
  }

  @Test func zeroDelayStillGoesThroughTheScheduler() {
    let scheduler = TestScheduler()
    let observer = scheduler.createObserver(Int.self)
    let subscription = Observable.just(1).delay(.zero, scheduler: scheduler).subscribe(observer)
    #expect(observer.events.isEmpty)
    scheduler.advance()
    #expect(observer.events == [.next(.zero, 1), .completed(.zero)])
    subscription.dispose()
  }
}
