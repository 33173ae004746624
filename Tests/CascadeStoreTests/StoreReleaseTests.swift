import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// A store keeps no input or state longer than it needs it.
///
/// An input goes once it is reduced, a state once every subscription has been given it: the
/// input queue and scheduled delivery keep nothing longer. Issue 19.
@Suite(.checksResources)
struct StoreReleaseTests {
  // Inputs queued behind the one being processed (sent from a subscriber) are each released
  // once reduced; the state keeps only what the reducer stored.
  @Test func queuedInputsAreReleasedOnceReduced() async {
    let live = LiveCount()
    let store = Store<Int, Tracked>(initialState: 0) { total, value in total += value.number }
    let subscription = store.subscribe(on: .synchronous) { total in
      guard total == 1 else { return }
      for number in 1...10 { store.send(Tracked(number, in: live)) }
    }
    store.send(Tracked(1, in: live))
    await store.settle()
    #expect(store.state == 56)
    #expect(live.value == 0)
    subscription.dispose()
  }

  // States waiting on a scheduler for a subscription are released once delivered: after the
  // scheduler runs, only the current state's value is alive.
  @Test func scheduledDeliveryReleasesWhatItDelivered() async {
    let live = LiveCount()
    let scheduler = TestScheduler()
    let store = Store<Tracked?, Tracked>(initialState: nil) { latest, value in latest = value }
    let delivered = Recorder<Int>()
    let subscription = store.subscribe(on: .scheduler(scheduler)) { latest in
      if let latest { delivered.append(latest.number) }
    }
    for number in 0..<20 { store.send(Tracked(number, in: live)) }
    await scheduler.advance(by: .zero)
    #expect(delivered.values.last == 19)
    #expect(live.value == 1)
    subscription.dispose()
  }
}
