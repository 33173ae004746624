import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ThrottleTests {
  private func source(_ scheduler: TestScheduler) -> Observable<Int, Never> {
    scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(2), 2),
      .next(.seconds(3), 3),
      .next(.seconds(5), 4),
      .next(.seconds(10), 5),
      .completed(.seconds(11)),
    ])
  }

  @Test func emitsTheFirstValueAtOnceAndTheLatestAtTheWindowsEnd() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(
      source(scheduler).throttle(.seconds(3), scheduler: scheduler)
    )
    // 1 opens a window [1, 4): 3 is the latest in it, emitted at 4, which opens [4, 7): 4 is
    // emitted at 7. 5 comes 3 s after 7, so it passes at once.
    #expect(
      observer.events == [
        .next(.seconds(1), 1),
        .next(.seconds(4), 3),
        .next(.seconds(7), 4),
        .next(.seconds(10), 5),
        .completed(.seconds(11)),
      ]
    )
  }

  @Test func dropsValuesInsideTheWindowWithoutLatest() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(
      source(scheduler).throttle(.seconds(3), latest: false, scheduler: scheduler)
    )
    #expect(
      observer.events == [
        .next(.seconds(1), 1),
        .next(.seconds(5), 4),
        .next(.seconds(10), 5),
        .completed(.seconds(11)),
      ]
    )
    #expect(scheduler.pendingCount == 0)
  }

  @Test func completionWaitsForTheKeptValue() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(2), 2),
      .completed(.seconds(3)),
    ])
    let observer = scheduler.record(source.throttle(.seconds(3), scheduler: scheduler))
    #expect(
      observer.events == [
        .next(.seconds(1), 1),
        .next(.seconds(4), 2),
        .completed(.seconds(4)),
      ]
    )
  }

  @Test func errorDropsTheKeptValue() {
    let scheduler = TestScheduler()
    let source: Observable<Int, TestError> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(2), 2),
      .error(.seconds(3), TestError("boom")),
    ])
    let observer = scheduler.record(source.throttle(.seconds(3), scheduler: scheduler))
    #expect(
      observer.events == [
        .next(.seconds(1), 1),
        .error(.seconds(3), TestError("boom")),
      ]
    )
  }

  @Test func aValueExactlyOneWindowLaterPasses() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(4), 2),
    ])
    let observer = scheduler.record(
      source.throttle(.seconds(3), scheduler: scheduler),
      until: .seconds(10)
    )
    #expect(observer.events == [.next(.seconds(1), 1), .next(.seconds(4), 2)])
  }
}
