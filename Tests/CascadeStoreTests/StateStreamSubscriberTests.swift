import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// The closures of `subscribe(onNext:…)` on a store's state stream.
///
/// The store delivers to their observer itself (`Observable.directSubscribe`), and to an
/// operator's observer type-erased. Both keep the grammar.
@Suite(.checksResources)
struct StateStreamSubscriberTests {
  /// A counter store, and the events its state stream's closures saw.
  static func subscribedStore() -> (Store<Int, Int>, Recorder<String>, any Disposable) {
    let store = Store<Int, Int>(initialState: 0) { count, amount in count += amount }
    let events = Recorder<String>()
    let subscription = store.states.subscribe(
      onNext: { events.append("next \($0)") },
      onCompleted: { events.append("completed") },
      onDisposed: { events.append("disposed") }
    )
    return (store, events, subscription)
  }

  // Each state, then the end once: `onCompleted` and `onDisposed` when the store shuts down, and
  // nothing for a later dispose.
  @Test func closuresSeeEachStateThenTheEndOnce() async {
    let (store, events, subscription) = Self.subscribedStore()
    store.send(1)
    store.send(2)
    await store.shutdown()
    subscription.dispose()
    #expect(events.values == ["next 0", "next 1", "next 3", "completed", "disposed"])
  }

  // Disposed: `onDisposed` once, no state after, and the store no longer holds the subscription.
  @Test func nothingIsDeliveredAfterDispose() {
    let (store, events, subscription) = Self.subscribedStore()
    store.send(1)
    subscription.dispose()
    store.send(2)
    subscription.dispose()
    #expect(events.values == ["next 0", "next 1", "disposed"])
    #expect(store.subscriptionCount == 0)
  }

  // A selection, directly and through an operator: the same values, in order; a subscriber that
  // disposes itself from its own `onNext` gets nothing after.
  @Test func directAndOperatorSubscribersSeeTheSameValues() {
    let store = Store<Int, Int>(initialState: 0) { count, amount in count += amount }
    let direct = Recorder<Int>()
    let mapped = Recorder<Int>()
    let once = Recorder<Int>()
    let first = store.select { $0 * 10 }.subscribe(onNext: { direct.append($0) })
    let second = store.select { $0 * 10 }.map { $0 + 1 }.subscribe(onNext: { mapped.append($0) })
    let holder = LockedValue<(any Disposable)?>(nil)
    let third = store.states.subscribe(onNext: { state in
      once.append(state)
      if state > 0 { holder.withLock { $0 }?.dispose() }
    })
    holder.withLock { $0 = third }
    for amount in 1...3 { store.send(amount) }
    #expect(direct.values == [0, 10, 30, 60])
    #expect(mapped.values == [1, 11, 31, 61])
    #expect(once.values == [0, 1])
    first.dispose()
    second.dispose()
  }

  /// An observer that records which of its two entries each state came through.
  final class Entries: ObserverType {
    typealias Element = Int
    typealias Failure = Never
    let seen = Recorder<String>()

    func on(_ event: StreamEvent<Int, Never>) {
      switch event {
      case .next(let value): seen.append("on next \(value)")
      case .completed: seen.append("on completed")
      }
    }

    func onNext(_ element: Int) { seen.append("onNext \(element)") }
  }

  // The states go to an observer's `onNext`, directly or through operators, as values: never
  // made events on the way (a copy of the state at each step). Its end still comes to `on`.
  @Test func statesReachAnObserversOnNextAsValues() async {
    let store = Store<Int, Int>(initialState: 0) { count, amount in count += amount }
    let direct = Entries()
    let chained = Entries()
    let first = store.states.subscribe(direct)
    let second = store.states.filter { $0 != 1 }.map { $0 * 10 }.subscribe(chained)

    store.send(1)
    store.send(2)
    await store.shutdown()

    #expect(direct.seen.values == ["onNext 0", "onNext 1", "onNext 3", "on completed"])
    #expect(chained.seen.values == ["onNext 0", "onNext 30", "on completed"])
    first.dispose()
    second.dispose()
  }
}
