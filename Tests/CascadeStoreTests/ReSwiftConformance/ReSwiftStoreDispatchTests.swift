import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReSwift's StoreDispatchTests (ReSwift/ReSwift, ReSwiftTests/StoreDispatchTests.swift),
// re-expressed on Cascade's `Store`.
//
// ReSwift's deprecated action creators map onto Cascade's commands: a synchronous
// `ActionCreator` (state and store in, an action out) is a `Command` whose `execute(state:core:)`
// sends the action; an `AsyncActionCreator` is `store.run { state, store in … }`, an asynchronous
// command that sends when its work is done.
@Suite(.checksResources)
@MainActor
struct ReSwiftStoreDispatchTests {
  /// ReSwift's `doubleValueActionCreator`: reads the state and sends twice its value.
  struct DoubleValue: Command {
    func execute(state: ReSwiftTestAppState, core: Store<ReSwiftTestAppState, ReSwiftAction>) {
      core.send(.setValue((state.testValue ?? 0) * 2))
    }
  }

  /// A reducer that sends to its own store is an error in ReSwift (a fatal error); Cascade queues
  /// the send and reduces it once the current action has been processed.
  @Test func testThrowsExceptionWhenReducersDispatch() {
    // Deliberate difference: ReSwift stops the process with a fatal error when a reducer
    // dispatches; Cascade's default `ReentrancyPolicy.queue` queues the send and reduces it right
    // after the current action, never recursively; the Store and ReentrancyPolicy docs say so
    // ("ReSwift stops the process, TCA warns, ReactorKit queues"), so that a send from the
    // store's own processing is never lost and never deadlocks.
    let queued = Self.dispatchingReducerStore(reentrancy: .queue)
    queued.store.send(.setValue(10))
    #expect(queued.store.currentState.testValue == 20)
    #expect(queued.reduced.values == [10, 20])
    #expect(queued.diagnostics.values.isEmpty)

    // The nearest to ReSwift's error: `.reject` drops the reducer's send and reports it.
    let rejected = Self.dispatchingReducerStore(reentrancy: .reject)
    rejected.store.send(.setValue(10))
    #expect(rejected.store.currentState.testValue == 10)
    #expect(rejected.reduced.values == [10])
    #expect(rejected.diagnostics.values.count == 1)
  }

  /// ReSwift's `DispatchingReducer`: a store whose reducer sends to the store itself.
  struct DispatchingReducerStore {
    let store: Store<ReSwiftTestAppState, ReSwiftAction>
    /// The values the reducer set, in order.
    let reduced: Recorder<Int?>
    /// The store's diagnostics, described.
    let diagnostics: Recorder<String>
  }

  /// A store whose reducer sends `setValue(20)` to the store itself while it reduces
  /// `setValue(10)`.
  static func dispatchingReducerStore(reentrancy: ReentrancyPolicy) -> DispatchingReducerStore {
    let reduced = Recorder<Int?>()
    let diagnostics = Recorder<String>()
    let storeBox = LockedValue<WeakStore?>(nil)
    let store = Store(
      initialState: ReSwiftTestAppState(),
      reentrancy: reentrancy,
      diagnostics: { diagnostics.append($0.description) }
    ) { (state: inout ReSwiftTestAppState, action: ReSwiftAction) in
      guard case .setValue(let value) = action else { return }
      reduced.append(value)
      state.testValue = value
      if value == 10 { storeBox.withLock { $0 }?.store?.send(.setValue(20)) }
    }
    storeBox.withLock { $0 = WeakStore(store: store) }
    return DispatchingReducerStore(store: store, reduced: reduced, diagnostics: diagnostics)
  }

  /// Holds a store weakly, for a reducer that sends to its own store.
  final class WeakStore: Sendable {
    weak let store: Store<ReSwiftTestAppState, ReSwiftAction>?

    init(store: Store<ReSwiftTestAppState, ReSwiftAction>) {
      self.store = store
    }
  }

  /// A synchronous action creator runs with the current state and its action is reduced.
  @Test func testAcceptsActionCreators() {
    let store = Store.reSwiftTestStore()
    store.send(.setValue(5))
    store.fire(command: DoubleValue())
    #expect(store.currentState.testValue == 10)
  }

  /// An asynchronous action creator's action is reduced once its work is done, and a subscriber
  /// sees the state it produced.
  @Test func testAcceptsAsyncActionCreators() async {
    let store = Store.reSwiftTestStore()
    let seen = Recorder<Int>()
    let subscriber = ReSwiftBlockSubscriber<ReSwiftTestAppState> { [weak store] state in
      if let value = state.testValue {
        #expect(store?.currentState.testValue == 5)
        seen.append(value)
      }
    }
    store.add(subscriber: subscriber)
    store.run("asyncActionCreator") { _, store in
      await Task.yield()
      store.send(.setValue(5))
    }
    await store.finish()
    #expect(await seen.wait(forCount: 1))
    #expect(seen.values == [5])
    store.remove(subscriber: subscriber)
  }

  /// The callback given with an asynchronous dispatch is called once, with the state its
  /// action produced.
  @Test func testCallsCallbackOnce() async {
    let store = Store.reSwiftTestStore()
    let callbacks = Recorder<Int?>()
    store.run("asyncActionCreator") { _, store in
      await Task.yield()
      store.send(.setValue(5)) { state in callbacks.append(state.testValue) }
    }
    #expect(await callbacks.wait(forCount: 1))
    await store.finish()
    #expect(callbacks.values == [5])
    #expect(store.currentState.testValue == 5)
  }
}
