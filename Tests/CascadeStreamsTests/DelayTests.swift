import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct DelayTests {
  /// Combine's spelling: a number is seconds (a literal, as Combine's `DispatchQueue` stride reads
  /// one), a `Duration` is itself, and `.infinity` is never.
  @Test func delayForTakesSecondsOrADuration() {
    let delays: [(Observable<Int, Never>, TestScheduler) -> Observable<Int, Never>] = [
      { $0.delay(for: 2, scheduler: $1) },
      { $0.delay(for: 0.25, scheduler: $1) },
      { $0.delay(for: .milliseconds(1500), scheduler: $1) },
      { $0.delay(for: .infinity, scheduler: $1) },
    ]
    let expected: [Duration?] = [.seconds(2), .milliseconds(250), .milliseconds(1500), nil]
    for (delay, due) in zip(delays, expected) {
      let scheduler = TestScheduler()
      let source: Observable<Int, Never> = scheduler.timeline([
        .next(.seconds(1), 1),
        .completed(.seconds(1)),
      ])
      let observer = scheduler.record(delay(source, scheduler))
      if let due {
        #expect(observer.events == [.next(.seconds(1) + due, 1), .completed(.seconds(1) + due)])
      } else {
        #expect(observer.events.isEmpty)
      }
    }
  }

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
