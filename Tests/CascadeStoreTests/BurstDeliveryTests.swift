import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// A burst of inputs to a store whose subscriber is behind follows the stated policy.
///
/// Through `.scheduler` the subscriber gets the latest state and no backlog builds up; through
/// `.everyState` it gets every state, and the backlog says how far behind it is. Issue 19.
@Suite(.checksResources)
struct BurstDeliveryTests {
  static let burst = 10_000

  // Before: every intermediate state waited on the scheduler (10,001 deliveries, each holding
  // its state); now the state subscribed to waits (it is never replaced: the subscriber sees
  // what it subscribed to), and one more, holding the latest.
  @Test func aSlowSubscriberGetsTheLatestStateWithNoBacklog() async {
    let scheduler = TestScheduler()
    let live = LiveCount()
    let store = Store<Tracked?, Int>(initialState: nil) { latest, number in
      latest = Tracked(number, in: live)
    }
    let delivered = Recorder<Int?>()
    let subscription = store.subscribe(on: .scheduler(scheduler)) { delivered.append($0?.number) }
    for number in 1...Self.burst { store.send(number) }
    #expect(store.deliveryBacklog == 2)
    #expect(store.coalescedDeliveries == Self.burst - 1)
    #expect(live.value <= 2)  // the current state, and the one waiting (the same, here)
    await scheduler.advance(by: .zero)
    #expect(delivered.values == [nil, Self.burst])
    #expect(store.deliveryBacklog == 0)
    subscription.dispose()
  }

  // Every state, when asked for: all of them arrive in order, and the backlog counts them until
  // they do.
  @Test func everyStateDeliversAllInOrderAndCountsTheBacklog() async {
    let scheduler = TestScheduler()
    let store = Store<Int, Int>(initialState: 0) { count, number in count = number }
    let delivered = Recorder<Int>()
    let subscription = store.subscribe(on: .everyState(scheduler)) { delivered.append($0) }
    for number in 1...Self.burst { store.send(number) }
    #expect(store.deliveryBacklog == Self.burst + 1)
    #expect(store.coalescedDeliveries == 0)
    await scheduler.advance(by: .zero)
    #expect(delivered.values == Array(0...Self.burst))
    #expect(store.deliveryBacklog == 0)
    subscription.dispose()
  }
}
