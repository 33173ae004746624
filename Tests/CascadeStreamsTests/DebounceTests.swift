import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct DebounceTests {
  @Test func emitsTheLastValueOfEachBurst() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(2), 2),
      .next(.seconds(3), 3),
      .next(.seconds(10), 4),
      .next(.seconds(11), 5),
      .completed(.seconds(20)),
    ])
    let observer = scheduler.record(source.debounce(.seconds(3), scheduler: scheduler))
    #expect(
      observer.events == [
        .next(.seconds(6), 3),
        .next(.seconds(14), 5),
        .completed(.seconds(20)),
      ]
    )
  }

  @Test func valuesSpacedBeyondTheDueTimeAllPass() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(5), 2),
      .next(.seconds(9), 3),
    ])
    let observer = scheduler.record(
      source.debounce(.seconds(2), scheduler: scheduler),
      until: .seconds(20)
    )
    #expect(
      observer.events == [
        .next(.seconds(3), 1),
        .next(.seconds(7), 2),
        .next(.seconds(11), 3),
      ]
    )
  }

  @Test func flushesTheWaitingValueOnCompletion() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(2), 2),
      .completed(.seconds(3)),
    ])
    let observer = scheduler.record(source.debounce(.seconds(5), scheduler: scheduler))
    #expect(observer.events == [.next(.seconds(3), 2), .completed(.seconds(3))])
  }

  @Test func completionWithNothingWaitingOnlyCompletes() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .completed(.seconds(10)),
    ])
    let observer = scheduler.record(source.debounce(.seconds(2), scheduler: scheduler))
    #expect(observer.events == [.next(.seconds(3), 1), .completed(.seconds(10))])
  }

  @Test func errorDropsTheWaitingValue() {
    let scheduler = TestScheduler()
    let source: Observable<Int, TestError> = scheduler.timeline([
      .next(.seconds(1), 1),
      .error(.seconds(2), TestError("boom")),
    ])
    let observer = scheduler.record(source.debounce(.seconds(5), scheduler: scheduler))
    #expect(observer.events == [.error(.seconds(2), TestError("boom"))])
  }

  @Test func disposeCancelsTheTimer() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([.next(.seconds(1), 1)])
    let observer = scheduler.record(
      source.debounce(.seconds(5), scheduler: scheduler),
      until: .seconds(3)
    )
    #expect(observer.events.isEmpty)
    #expect(scheduler.pendingCount == 0)
  }
}
