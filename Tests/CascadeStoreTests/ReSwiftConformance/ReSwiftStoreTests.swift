import CascadeStore
import CascadeTestSupport
import CascadeTesting
import Testing

// ReSwift's StoreTests (ReSwift/ReSwift, ReSwiftTests/StoreTests.swift), re-expressed on
// Cascade's `Store`. ReSwift's `DeInitStore` subclasses the store to count its deinit; Cascade's
// `Store` is final, so the release is watched through a weak reference.
@Suite(.checksResources)
struct ReSwiftStoreTests {
  /// ReSwift's `CounterState`.
  struct CounterState: Sendable, Equatable {
    var count = 0
  }

  /// A store made without a state gets it from its reducer, through an initial action.
  @Test func testInit() {
    let reduced = Recorder<String>()
    let store = Store(initialState: CounterState(count: 3)) {
      (_: inout CounterState, action: ReSwiftAction) in
      reduced.append("\(action)")
    }

    // Deliberate difference: ReSwift's store takes an optional state and, given `nil`, dispatches
    // `ReSwiftInit` so that the reducer builds it; Cascade's `Store(initialState:…)` takes the
    // state itself ("the state before any action"), so nothing is reduced until an action is
    // sent: a typed reducer has no action to build a state from.
    #expect(reduced.values.isEmpty)
    #expect(store.currentState == CounterState(count: 3))

    store.send(.noOp)
    #expect(reduced.values == ["\(ReSwiftAction.noOp)"])
  }

  /// A store that nothing holds is released.
  @Test func testDeinit() {
    weak var weakStore: Store<ReSwiftTestAppState, ReSwiftAction>?
    do {
      let store = Store.reSwiftTestStore()
      weakStore = store
      store.send(.setValue(1))
      #expect(weakStore?.currentState.testValue == 1)
    }
    #expect(weakStore == nil)
  }
}
