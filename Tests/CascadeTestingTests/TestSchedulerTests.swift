import CascadeStreams
import CascadeTesting
import Synchronization
import Testing

@Suite(.checksResources)
struct TestSchedulerTests {
  // AT-46: items due at the same time run in the order they were scheduled.
  @Test func sameTimeItemsRunInSchedulingOrder() {
    let scheduler = TestScheduler()
    let order = Recorder<String>()
    scheduler.schedule(after: .seconds(2)) { order.append("a@2") }
    scheduler.schedule(after: .seconds(1)) { order.append("b@1") }
    scheduler.schedule(after: .seconds(2)) { order.append("c@2") }
    scheduler.schedule(after: .seconds(1)) { order.append("d@1") }
    scheduler.schedule(after: .seconds(2)) { order.append("e@2") }
    scheduler.schedule { order.append("f@0") }
    scheduler.advance(by: .seconds(2))
    #expect(order.values == ["f@0", "b@1", "d@1", "a@2", "c@2", "e@2"])
  }

  // AT-46: advance(to:) runs exactly the items due at or before the target, then sets the clock
  // to the target; while an item runs, the clock reads the item's time.
  @Test func advanceToRunsExactlyTheDueItems() {
    let scheduler = TestScheduler()
    let seen = Recorder<(String, Duration)>()
    for second in 1...3 {
      scheduler.schedule(after: .seconds(second)) {
        seen.append(("item \(second)", scheduler.now.offset))
      }
    }
    scheduler.advance(to: Duration.seconds(2).instant)
    #expect(seen.values.map(\.0) == ["item 1", "item 2"])
    #expect(seen.values.map(\.1) == [.seconds(1), .seconds(2)])
    #expect(scheduler.now == Duration.seconds(2).instant)
    #expect(scheduler.pendingCount == 1)

    scheduler.advance(to: Duration.milliseconds(2_999).instant)
    #expect(seen.values.count == 2)
    #expect(scheduler.now.offset == .milliseconds(2_999))

    scheduler.advance(by: .milliseconds(1))
    #expect(seen.values.map(\.0) == ["item 1", "item 2", "item 3"])
    #expect(scheduler.now.offset == .seconds(3))

    scheduler.advance(to: Duration.seconds(10).instant)
    #expect(scheduler.now.offset == .seconds(10))
    #expect(scheduler.pendingCount == 0)
  }

  @Test func scheduleWithoutDelayRunsOnTheNextAdvance() {
    let scheduler = TestScheduler()
    let ran = Recorder<Duration>()
    scheduler.advance(by: .seconds(5))
    scheduler.schedule { ran.append(scheduler.now.offset) }
    scheduler.schedule(after: .seconds(-3)) { ran.append(scheduler.now.offset) }
    #expect(ran.values.isEmpty)
    scheduler.advance()
    #expect(ran.values == [.seconds(5), .seconds(5)])
    #expect(scheduler.now.offset == .seconds(5))
  }

  // AT-46: moving back in time is a programming error.
  @Test func negativeAdvanceIsFatal() async {
    await #expect(processExitsWith: .failure) {
      TestScheduler().advance(by: .seconds(-1))
    }
    await #expect(processExitsWith: .failure) {
      let scheduler = TestScheduler()
      scheduler.advance(by: .seconds(2))
      scheduler.advance(to: SchedulerInstant(offset: .seconds(1)))
    }
  }

  // AT-46: work scheduled while advancing that falls within the window runs in the same advance,
  // at its own time; work due after the window waits.
  @Test func workScheduledDuringAdvanceRunsWithinTheWindow() {
    let scheduler = TestScheduler()
    let seen = Recorder<(String, Duration)>()
    @Sendable func log(_ label: String) { seen.append((label, scheduler.now.offset)) }
    scheduler.schedule(after: .seconds(1)) {
      log("outer")
      scheduler.schedule { log("same time") }
      scheduler.schedule(after: .seconds(1)) {
        log("nested")
        scheduler.schedule(after: .seconds(1)) { log("nested twice") }
      }
      scheduler.schedule(after: .seconds(5)) { log("after the window") }
    }
    scheduler.advance(by: .seconds(3))
    #expect(seen.values.map(\.0) == ["outer", "same time", "nested", "nested twice"])
    #expect(seen.values.map(\.1) == [.seconds(1), .seconds(1), .seconds(2), .seconds(3)])
    #expect(scheduler.pendingCount == 1)
    scheduler.advance(by: .seconds(3))
    #expect(seen.values.last?.0 == "after the window")
    #expect(seen.values.last?.1 == .seconds(6))
  }

  @Test func advancingFromInsideAnItemIsReentrant() {
    let scheduler = TestScheduler()
    let seen = Recorder<(String, Duration)>()
    scheduler.schedule(after: .seconds(1)) {
      seen.append(("outer", scheduler.now.offset))
      scheduler.advance(by: .seconds(1))
      seen.append(("outer resumed", scheduler.now.offset))
    }
    scheduler.schedule(after: .seconds(2)) { seen.append(("inner", scheduler.now.offset)) }
    scheduler.schedule(after: .seconds(3)) { seen.append(("last", scheduler.now.offset)) }
    scheduler.advance(by: .seconds(3))
    #expect(seen.values.map(\.0) == ["outer", "inner", "outer resumed", "last"])
    #expect(seen.values.map(\.1) == [.seconds(1), .seconds(2), .seconds(2), .seconds(3)])
  }

  // AT-46: cancelled items never run, including items cancelled by other items during the same
  // advance; disposing after an item ran does nothing.
  @Test func cancelledItemsNeverRun() {
    let scheduler = TestScheduler()
    let ran = Recorder<String>()
    let cancelledEarly = scheduler.schedule(after: .seconds(1)) { ran.append("cancelled early") }
    let cancelledLate = scheduler.schedule(after: .seconds(2)) { ran.append("cancelled late") }
    let sameTime = scheduler.schedule(after: .seconds(1)) { ran.append("cancelled same time") }
    let ranItem = scheduler.schedule(after: .seconds(1)) {
      ran.append("runs")
      cancelledLate.dispose()
    }
    scheduler.schedule(after: .milliseconds(500)) { sameTime.dispose() }
    cancelledEarly.dispose()
    #expect(scheduler.pendingCount == 4)
    scheduler.advance(by: .seconds(3))
    #expect(ran.values == ["runs"])
    ranItem.dispose()
    cancelledEarly.dispose()
    #expect(scheduler.pendingCount == 0)
  }

  @Test func cancellingReleasesTheAction() {
    final class Payload: Sendable {}
    let scheduler = TestScheduler()
    weak var weakPayload: Payload?
    let item: any Disposable
    do {
      let payload = Payload()
      weakPayload = payload
      item = scheduler.schedule(after: .seconds(1)) { _ = payload }
    }
    #expect(weakPayload != nil)
    item.dispose()
    #expect(weakPayload == nil)
  }

  // AT-46: 20,000 randomly timed items (some cancelled) run in sorted time order, ties in
  // scheduling order, each seeing its own time. Seed recorded for replay.
  @Test func randomlyTimedItemsRunInTimeOrder() {
    let seed: UInt64 = 0x5EED_CA5C_ADE0_0046
    var random = SplitMix64(seed: seed)
    let scheduler = TestScheduler()
    let ran = Recorder<(index: Int, time: Duration)>()
    var expected: [(index: Int, time: Duration)] = []
    var cancellations: [any Disposable] = []
    for index in 0..<20_000 {
      // Few distinct times, so many items share one and their tie order is checked too.
      let time = Duration.milliseconds(Int.random(in: 0..<2_000, using: &random))
      let item = scheduler.schedule(after: time) { ran.append((index, scheduler.now.offset)) }
      if Int.random(in: 0..<10, using: &random) == 0 {
        cancellations.append(item)
      } else {
        expected.append((index, time))
      }
    }
    for item in cancellations { item.dispose() }
    // Stable sort: ties keep scheduling order.
    expected = expected.enumerated()
      .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
      .map(\.element)
    while scheduler.pendingCount > 0 {
      scheduler.advance(by: .milliseconds(Int.random(in: 0..<50, using: &random)))
    }
    let actual = ran.values
    #expect(actual.count == expected.count, "seed \(seed)")
    #expect(actual.map(\.index) == expected.map(\.index), "seed \(seed)")
    #expect(actual.map(\.time) == expected.map(\.time), "seed \(seed)")
  }

  @Test func runExecutesEverythingAndMovesTheClock() {
    let scheduler = TestScheduler()
    let ran = Recorder<Duration>()
    scheduler.schedule(after: .seconds(7)) {
      ran.append(scheduler.now.offset)
      scheduler.schedule(after: .seconds(3)) { ran.append(scheduler.now.offset) }
    }
    scheduler.run()
    #expect(ran.values == [.seconds(7), .seconds(10)])
    #expect(scheduler.now.offset == .seconds(10))
  }

  @Test func runReportsStreamsThatNeverGoIdle() {
    let scheduler = TestScheduler()
    let ticks = Atomic(0)
    let periodic = scheduler.schedulePeriodic(after: .zero, period: .seconds(1)) {
      ticks.add(1, ordering: .relaxed)
    }
    withKnownIssue {
      scheduler.run(limit: 10)
    } matching: { issue in
      issue.description.contains("ran more than 10 items")
    }
    #expect(ticks.load(ordering: .relaxed) == 10)
    periodic.dispose()
    #expect(scheduler.pendingCount == 0)
  }

  // AT-47: a timeline of periodic work and delays, replayed 1,000 times on fresh schedulers,
  // records the same events at the same virtual times every time.
  @Test func repeatedTimelinesMatch() {
    let first = timeline()
    #expect(
      first == [
        .next(.seconds(1), "tick 1"),
        .next(.milliseconds(1_500), "echo 1"),
        .next(.seconds(3), "tick 2"),
        .next(.seconds(4), "echo 2"),
        .next(.seconds(5), "tick 3"),
        .next(.milliseconds(6_500), "echo 3"),
        .next(.seconds(7), "tick 4"),
        .next(.seconds(9), "echo 4"),
        .next(.seconds(9), "tick 5"),
        .next(.seconds(11), "tick 6"),
        .next(.milliseconds(11_500), "echo 5"),
        .completed(.seconds(12)),
      ]
    )
    var mismatches = 0
    for _ in 0..<1_000 where timeline() != first {
      mismatches += 1
    }
    #expect(mismatches == 0)
  }

  /// Ticks every 2 s from 1 s; each tick `n` echoes `n × 0.5 s` later; completes 3 s after the
  /// fifth tick, which cancels the periodic work and the echoes still pending.
  private func timeline() -> [Recorded<StreamEvent<String, Never>>] {
    let scheduler = TestScheduler()
    let observer = scheduler.createObserver(String.self)
    let stream = Observable<String, Never>.create { observer in
      let work = CompositeDisposable()
      let ticks = Atomic(0)
      let periodic = scheduler.schedulePeriodic(after: .seconds(1), period: .seconds(2)) {
        let tick = ticks.add(1, ordering: .relaxed).newValue
        observer.onNext("tick \(tick)")
        work.insert(
          scheduler.schedule(after: .milliseconds(500 * tick)) { observer.onNext("echo \(tick)") }
        )
        if tick == 5 {
          work.insert(scheduler.schedule(after: .seconds(3)) { observer.onCompleted() })
        }
      }
      work.insert(periodic)
      return work
    }
    let subscription = stream.subscribe(observer)
    scheduler.advance(by: .seconds(30))
    subscription.dispose()
    return observer.events
  }
}
