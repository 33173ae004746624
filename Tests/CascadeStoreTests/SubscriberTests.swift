import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct SubscriberTests {
  struct Counter: CoreState {
    var count = 0
    mutating func react(to event: any CoreEvent) {
      if event is Bump { count += 1 }
    }
  }

  struct Bump: CoreEvent {}

  @MainActor
  final class Label: CascadeStore.Subscriber {
    var texts: [String] = []
    /// How many updates arrived, for tests to wait on.
    let updates = CascadeTestSupport.Counter()
    func update(with state: Counter) {
      MainActor.assertIsolated()
      texts.append("\(state.count)")
      updates.increment()
    }
  }

  @MainActor
  final class LevelOnly: CascadeStore.Subscriber {
    var levels: [Int] = []
    func update(with state: Int) { levels.append(state) }
  }

  // The seed's subscriber: the current state on add, each update on the main actor, and
  // synchronously when the event is fired on the main actor.
  @Test @MainActor func subscriberReceivesUpdatesSynchronouslyOnMain() {
    let core = Core(initialState: Counter())
    let label = Label()
    core.add(subscriber: label)
    #expect(label.texts == ["0"])
    core.fire(event: Bump())
    #expect(label.texts == ["0", "1"])
    core.remove(subscriber: label)
    core.fire(event: Bump())
    #expect(label.texts == ["0", "1"])
    #expect(core.subscriptionCount == 0)
  }

  // The selector is applied to every update (the seed's PR "Use the selector").
  @Test @MainActor func selectorIsApplied() {
    let core = Core(initialState: Counter())
    let subscriber = LevelOnly()
    core.add(subscriber: subscriber, selector: { $0.count * 10 })
    core.fire(event: Bump())
    #expect(subscriber.levels == [0, 10])
    core.remove(subscriber: subscriber)
  }

  // Updates fired from a background thread arrive on the main actor.
  @Test @MainActor func backgroundEventsAreDeliveredOnMain() async {
    let core = Core(initialState: Counter())
    let label = Label()
    core.add(subscriber: label)
    await Task.detached { core.fire(event: Bump()) }.value
    // The update was reduced on the background thread and enqueued for the main actor: wait for
    // it to arrive there.
    #expect(await label.updates.wait(forAtLeast: 2))
    #expect(label.texts == ["0", "1"])
    core.remove(subscriber: label)
  }

  // AT-38: a subscriber released without unsubscribing is not retained, not notified, and the
  // live subscription count drops by the next dispatch.
  @Test @MainActor func subscribersAreHeldWeakly() {
    let core = Core(initialState: Counter())
    var label: Label? = Label()
    weak let weakLabel = label
    core.add(subscriber: label!)
    #expect(core.subscriptionCount == 1)
    label = nil
    #expect(weakLabel == nil)
    core.fire(event: Bump())
    #expect(core.subscriptionCount == 0)
  }
}
