import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Synchronization
import Testing

/// The one scheduled delivery behind `observe(on:)`, `observeLatest(on:)` and a store's
/// subscriptions on a scheduler, exercised directly.
///
/// One drain per burst; the first value kept; the latest (or every) value after it; the ending
/// last; cancel drops what waits, disposes the drain and refuses what follows; counted.
struct CoalescingDeliveryTests {
  private func target(
    _ values: Recorder<Int>,
    _ endings: Recorder<String>,
    isActive: (@Sendable () -> Bool)? = nil
  ) -> DeliveryTarget<Int, String> {
    DeliveryTarget(
      isActive: isActive,
      value: { values.append($0) },
      ending: { endings.append($0) }
    )
  }

  @Test(arguments: [true, false])
  func aBurstCostsOneDrainAndTheEndingComesLast(coalescing: Bool) {
    let scheduler = TestScheduler()
    let counters = DeliveryCounters()
    let delivery = CoalescingDelivery<Int, String>(
      scheduler: scheduler,
      coalescing: coalescing,
      keepsFirst: true,
      counters: counters
    )
    let values = Recorder<Int>()
    let endings = Recorder<String>()
    for value in 1...4 { delivery.offer(value, to: target(values, endings)) }
    delivery.end(with: "done", to: target(values, endings))
    delivery.offer(5, to: target(values, endings))  // After the ending: refused.
    #expect(scheduler.pendingCount == 1)
    #expect(counters.pending.load(ordering: .relaxed) == (coalescing ? 2 : 4))
    #expect(counters.coalesced.load(ordering: .relaxed) == (coalescing ? 2 : 0))
    scheduler.advance()
    #expect(values.values == (coalescing ? [1, 4] : [1, 2, 3, 4]))
    #expect(endings.values == ["done"])
    #expect(counters.pending.load(ordering: .relaxed) == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func withoutKeepsFirstTheFirstValueIsReplacedToo() {
    let scheduler = TestScheduler()
    let delivery = CoalescingDelivery<Int, String>(
      scheduler: scheduler,
      coalescing: true,
      keepsFirst: false,
      counters: nil
    )
    let values = Recorder<Int>()
    let endings = Recorder<String>()
    for value in 1...3 { delivery.offer(value, to: target(values, endings)) }
    scheduler.advance()
    delivery.offer(4, to: target(values, endings))
    #expect(scheduler.pendingCount == 1)
    scheduler.advance()
    #expect(values.values == [3, 4])
  }

  @Test func cancelDropsAndReleasesWhatWaitsAndRefusesWhatFollows() {
    let live = LiveCount()
    let scheduler = TestScheduler()
    let counters = DeliveryCounters()
    let delivery = CoalescingDelivery<Tracked, Never>(
      scheduler: scheduler,
      coalescing: false,
      keepsFirst: true,
      counters: counters
    )
    let received = Recorder<Int>()
    let target = DeliveryTarget<Tracked, Never>(
      isActive: { true },
      value: { received.append($0.number) }
    )
    for number in 0..<3 { delivery.offer(Tracked(number, in: live), to: target) }
    #expect(live.value == 3)
    #expect(scheduler.pendingCount == 1)
    delivery.cancel()
    #expect(live.value == 0)
    #expect(counters.pending.load(ordering: .relaxed) == 0)
    #expect(scheduler.pendingCount == 0)
    delivery.offer(Tracked(3, in: live), to: target)
    #expect(live.value == 0)
    #expect(scheduler.pendingCount == 0)
    scheduler.advance()
    #expect(received.values.isEmpty)
  }

  @Test func anInactiveTargetGetsNothingAndTheBacklogEmpties() {
    let scheduler = TestScheduler()
    let counters = DeliveryCounters()
    let delivery = CoalescingDelivery<Int, String>(
      scheduler: scheduler,
      coalescing: false,
      keepsFirst: true,
      counters: counters
    )
    let values = Recorder<Int>()
    let endings = Recorder<String>()
    let inactive = target(values, endings, isActive: { false })
    for value in 1...3 { delivery.offer(value, to: inactive) }
    delivery.end(with: "done", to: inactive)
    scheduler.advance()
    #expect(values.values.isEmpty)
    #expect(endings.values.isEmpty)
    #expect(counters.pending.load(ordering: .relaxed) == 0)
  }
}
