import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Observation
import Testing

@Suite(.checksResources)
@MainActor
struct MainStoreTests {
  @Test func sendOnMainIsSynchronous() {
    let store = MainStore(initialState: 0) { (count: inout Int, amount: Int) in count += amount }
    var seen: [Int] = []
    let subscription = store.subscribe { seen.append($0) }
    store.send(2)
    #expect(store.state == 2)
    #expect(seen == [0, 2])
    subscription.dispose()
  }

  // Sends from a command on another thread are processed on the main actor.
  @Test func commandSendsAreHoppedToMain() async {
    let store = MainStore(initialState: [String]()) { (log: inout [String], entry: String) in
      MainActor.assertIsolated()
      log.append(entry)
    }
    store.run { _, store in
      await Task.detached { store.send("from background") }.value
    }
    // The command has ended and its input, hopped to the main queue, is reduced.
    await store.finish()
    #expect(store.state == ["from background"])
  }

  // Replay on the main actor: the recorded actions are reduced there, the command a subscriber
  // starts for one of them does not run, and the store is live afterwards.
  @Test func replayReducesOnMainAndRunsNoCommand() async {
    let store = MainStore(initialState: [String]()) { (log: inout [String], entry: String) in
      MainActor.assertIsolated()
      log.append(entry)
    }
    let subscription = store.subscribe { [weak store] log in
      if log.last == "load" { store?.run { _, store in store.send("loaded") } }
    }
    let report = await store.replay(["load", "loaded"])
    #expect(store.state == ["load", "loaded"])
    #expect(report == ReplayReport(replayed: 2, droppedInputs: 0, skippedEffects: 1))
    store.send("load")
    await store.finish()
    #expect(store.state == ["load", "loaded", "load", "loaded"])
    subscription.dispose()
  }

  // The Observation adapter: a selection observable with withObservationTracking.
  @Test func observedSelectionNotifiesObservers() async {
    let store = Store(initialState: 0) { (count: inout Int, amount: Int) in count += amount }
    let model = store.observe { $0 * 10 }
    #expect(model.value == 0)
    let changed = Counter()
    withObservationTracking {
      _ = model.value
    } onChange: {
      changed.increment()
    }
    store.send(1)
    #expect(changed.value == 1)
    #expect(model.value == 10)
  }
}
