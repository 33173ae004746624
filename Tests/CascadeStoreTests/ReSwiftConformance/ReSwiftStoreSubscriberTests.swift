import CascadeStore
import CascadeTesting
import Testing

// ReSwift's StoreSubscriberTests (ReSwift/ReSwift, ReSwiftTests/StoreSubscriberTests.swift),
// re-expressed on Cascade's `Store`.
//
// How ReSwift's subscriptions map:
// - `store.subscribe(subscriber) { $0.select(...) }`, a subscriber object with a selection and
//   no rule about repeats, is `store.add(subscriber:selector:)` with a main-actor `Subscriber`.
// - A selection with `skipRepeats { … }` or `skip(when:)` is `subscribe(select:isDuplicate:on:_:)`
//   with that rule as `isDuplicate`; `only(when:)` is its negation; an explicit `skipRepeats()`
//   is `isDuplicate: { $0 == $1 }`.
// - ReSwift skips repeats of an `Equatable` selection by default; so does Cascade's
//   `subscribe(select:on:_:)` for an `Equatable` selection.
// - ReSwift's store-wide `automaticallySkipsRepeats: false` is the same parameter of Cascade's
//   `Store`; per subscription, `isDuplicate: nil` delivers every selection.
// Subscriptions by closure are delivered `.synchronous`ly, as ReSwift's are. Subscribers added
// with `add(subscriber:)` are delivered on the main actor, where the suite runs: before `send`
// returns unless another delivery of the shared main scheduler is waiting (another test's, from
// a background thread); their tests await `delivered()` after each step so that they hold
// either way.
@Suite(.checksResources)
@MainActor
struct ReSwiftStoreSubscriberTests {
  /// A selection closure picks the part of the state the subscriber receives.
  @Test func testAllowsSelectorClosure() async {
    let store = Store.reSwiftTestStore()
    let subscriber = ReSwiftTestSubscriber<Int?>()
    store.add(subscriber: subscriber, selector: { $0.testValue })
    await store.delivered()

    store.send(.setValue(3))
    await store.delivered()
    #expect(subscriber.receivedValue == 3)

    store.send(.setValue(nil))
    await store.delivered()
    #expect(subscriber.receivedValue == .some(.none))
    store.remove(subscriber: subscriber)
  }

  /// A key path picks the part of the state the subscriber receives.
  @Test func testAllowsSelectorKeyPath() async {
    let store = Store.reSwiftTestStore()
    let subscriber = ReSwiftTestSubscriber<Int?>()
    store.add(subscriber: subscriber, selector: \.testValue)
    await store.delivered()

    store.send(.setValue(3))
    await store.delivered()
    #expect(subscriber.receivedValue == 3)

    store.send(.setValue(nil))
    await store.delivered()
    #expect(subscriber.receivedValue == .some(.none))
    store.remove(subscriber: subscriber)
  }

  /// A selection can combine several parts of the state into a tuple.
  @Test func testComplexStateSelector() async {
    let store = Store(
      initialState: ReSwiftTestComplexAppState(),
      reducer: ReSwiftReducers.complexAppStateReducer
    )
    let subscriber = ReSwiftTestSubscriber<(Int?, String?)>()
    store.add(subscriber: subscriber, selector: { ($0.testValue, $0.otherState?.name) })
    await store.delivered()

    store.send(.setValue(5))
    await store.delivered()
    store.send(.setOtherState(ReSwiftOtherState(name: "TestName", age: 99)))
    await store.delivered()

    #expect(subscriber.receivedValue?.0 == 5)
    #expect(subscriber.receivedValue?.1 == "TestName")
    store.remove(subscriber: subscriber)
  }

  /// A custom skip-repeats rule holds back a selection equal to the last (closure selection).
  @Test func testUnchangedStateWithRegularSubstateSelection() {
    let store = Store.reSwiftTestStore(state: ReSwiftTestAppState(testValue: 3))
    let subscriber = ReSwiftFilteredSubscriber<Int?>()
    store.subscribe(select: { $0.testValue }, isDuplicate: { $0 == $1 }, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue == 3)

    store.send(.setValue(3))

    #expect(subscriber.receivedValue == 3)
    #expect(subscriber.newStateCallCount == 1)
  }

  /// A custom skip-repeats rule holds back a selection equal to the last (key path selection).
  @Test func testUnchangedStateWithKeyPath() {
    let store = Store.reSwiftTestStore(state: ReSwiftTestAppState(testValue: 3))
    let subscriber = ReSwiftFilteredSubscriber<Int?>()
    store.subscribe(select: \.testValue, isDuplicate: { $0 == $1 }, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue == 3)

    store.send(.setValue(3))

    #expect(subscriber.receivedValue == 3)
    #expect(subscriber.newStateCallCount == 1)
  }

  /// The `Equatable` skip-repeats rule holds back an unchanged string (closure selection).
  @Test func testUnchangedStateDefaultSkipRepeatsWithRegularSubstateSelection() {
    let store = Store(
      initialState: ReSwiftTestStringAppState(),
      reducer: ReSwiftReducers.valueStringReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: { $0.testValue }, isDuplicate: { $0 == $1 }, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue == "Initial")

    store.send(.setValueString("Initial"))

    #expect(subscriber.receivedValue == "Initial")
    #expect(subscriber.newStateCallCount == 1)
  }

  /// The `Equatable` skip-repeats rule holds back an unchanged string (key path selection).
  @Test func testUnchangedStateDefaultSkipRepeatsWithKeyPath() {
    let store = Store(
      initialState: ReSwiftTestStringAppState(),
      reducer: ReSwiftReducers.valueStringReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: \.testValue, isDuplicate: { $0 == $1 }, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue == "Initial")

    store.send(.setValueString("Initial"))

    #expect(subscriber.receivedValue == "Initial")
    #expect(subscriber.newStateCallCount == 1)
  }

  /// A custom equality over a non-`Equatable` substate holds back an equal one (closure
  /// selection).
  @Test func testSkipsStateUpdatesForCustomEqualityChecksWithRegularSubstateSelection() {
    let store = Store(
      initialState: ReSwiftTestCustomAppState(substateValue: 5),
      reducer: ReSwiftReducers.customAppStateReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<ReSwiftTestCustomAppState.TestCustomSubstate>()
    store.subscribe(
      select: { $0.substate },
      isDuplicate: { $0.value == $1.value },
      on: .synchronous
    ) { subscriber.newState(state: $0) }
    #expect(subscriber.receivedValue?.value == 5)

    store.send(.setCustomSubstate(5))

    #expect(subscriber.receivedValue?.value == 5)
    #expect(subscriber.newStateCallCount == 1)
  }

  /// A custom equality over a non-`Equatable` substate holds back an equal one (key path
  /// selection).
  @Test func testSkipsStateUpdatesForCustomEqualityChecksWithKeyPath() {
    let store = Store(
      initialState: ReSwiftTestCustomAppState(substateValue: 5),
      reducer: ReSwiftReducers.customAppStateReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<ReSwiftTestCustomAppState.TestCustomSubstate>()
    store.subscribe(
      select: \.substate,
      isDuplicate: { $0.value == $1.value },
      on: .synchronous
    ) { subscriber.newState(state: $0) }
    #expect(subscriber.receivedValue?.value == 5)

    store.send(.setCustomSubstate(5))

    #expect(subscriber.receivedValue?.value == 5)
    #expect(subscriber.newStateCallCount == 1)
  }

  /// A non-`Equatable` selection cannot be compared, so every one is delivered (closure
  /// selection).
  @Test func testPassesOnDuplicateSubstateUpdatesByDefaultWithRegularSubstateSelection() {
    let store = Store(
      initialState: ReSwiftTestNonEquatable(),
      reducer: ReSwiftReducers.nonEquatableReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<ReSwiftNonEquatable>()
    store.subscribe(select: { $0.testValue }, isDuplicate: nil, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue?.testValue == "Initial")

    store.send(.setNonEquatable(ReSwiftNonEquatable()))

    #expect(subscriber.receivedValue?.testValue == "Initial")
    #expect(subscriber.newStateCallCount == 2)
  }

  /// A non-`Equatable` selection cannot be compared, so every one is delivered (key path
  /// selection).
  @Test func testPassesOnDuplicateSubstateUpdatesByDefaultWithKeyPath() {
    let store = Store(
      initialState: ReSwiftTestNonEquatable(),
      reducer: ReSwiftReducers.nonEquatableReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<ReSwiftNonEquatable>()
    store.subscribe(select: \.testValue, isDuplicate: nil, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue?.testValue == "Initial")

    store.send(.setNonEquatable(ReSwiftNonEquatable()))

    #expect(subscriber.receivedValue?.testValue == "Initial")
    #expect(subscriber.newStateCallCount == 2)
  }

  /// With skipping turned off, an unchanged `Equatable` selection is delivered again (closure
  /// selection).
  @Test func testPassesOnDuplicateSubstateWhenSkipsFalseWithRegularSubstateSelection() {
    let store = Store(
      initialState: ReSwiftTestStringAppState(),
      automaticallySkipsRepeats: false,
      reducer: ReSwiftReducers.valueStringReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: { $0.testValue }, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue == "Initial")

    store.send(.setValueString("Initial"))

    #expect(subscriber.receivedValue == "Initial")
    #expect(subscriber.newStateCallCount == 2)
  }

  /// With skipping turned off, an unchanged `Equatable` selection is delivered again (key path
  /// selection).
  @Test func testPassesOnDuplicateSubstateWhenSkipsFalseWithKeyPath() {
    let store = Store(
      initialState: ReSwiftTestStringAppState(),
      automaticallySkipsRepeats: false,
      reducer: ReSwiftReducers.valueStringReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: \.testValue, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue == "Initial")

    store.send(.setValueString("Initial"))

    #expect(subscriber.receivedValue == "Initial")
    #expect(subscriber.newStateCallCount == 2)
  }

  /// A subscriber to a whole `Equatable` state is not called again for an equal state.
  @Test func testSkipsStateUpdatesForEquatableStateByDefault() async {
    let store = Store(
      initialState: ReSwiftTestStringAppState(),
      reducer: ReSwiftReducers.valueStringReducer
    )
    let subscriber = ReSwiftTestSubscriber<ReSwiftTestStringAppState>()
    store.add(subscriber: subscriber)
    await store.delivered()
    let closureSubscriber = ReSwiftFilteredSubscriber<ReSwiftTestStringAppState>()
    store.subscribe(on: .synchronous) { closureSubscriber.newState(state: $0) }
    #expect(subscriber.receivedValue?.testValue == "Initial")
    #expect(closureSubscriber.receivedValue?.testValue == "Initial")

    store.send(.setValueString("Initial"))
    await store.delivered()

    #expect(subscriber.receivedValue?.testValue == "Initial")
    #expect(closureSubscriber.receivedValue?.testValue == "Initial")
    #expect(subscriber.newStateCallCount == 1)
    #expect(closureSubscriber.newStateCallCount == 1)
    store.remove(subscriber: subscriber)
  }

  /// An `Equatable` part of a non-`Equatable` state skips repeats by default (closure
  /// selection).
  @Test func testSkipsStateUpdatesForEquatableSubStateByDefaultWithRegularSubstateSelection() {
    let store = Store(
      initialState: ReSwiftTestNonEquatable(),
      reducer: ReSwiftReducers.nonEquatableReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: { $0.testValue.testValue }, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue == "Initial")

    store.send(.setValueString("Initial"))

    #expect(subscriber.receivedValue == "Initial")
    #expect(subscriber.newStateCallCount == 1)
  }

  /// An `Equatable` part of a non-`Equatable` state skips repeats by default, also in code
  /// generic over the store's type (ReSwift's `StoreType`; here generic over the action type).
  @Test func testSkipsStateUpdatesForEquatableSubStateByDefaultWithKeyPathOnGenericStoreType() {
    let store = Store(
      initialState: ReSwiftTestNonEquatable(),
      reducer: ReSwiftReducers.nonEquatableReducer
    )

    func runTests<Action: Sendable>(
      store: Store<ReSwiftTestNonEquatable, Action>,
      unrelated action: Action
    ) {
      let subscriber = ReSwiftFilteredSubscriber<String>()
      store.subscribe(select: \.testValue.testValue, on: .synchronous) {
        subscriber.newState(state: $0)
      }
      #expect(subscriber.receivedValue == "Initial")

      store.send(action)

      #expect(subscriber.receivedValue == "Initial")
      #expect(subscriber.newStateCallCount == 1)
    }

    runTests(store: store, unrelated: ReSwiftAction.setValueString("Initial"))
  }

  /// An `Equatable` part of a non-`Equatable` state skips repeats by default (key path
  /// selection).
  @Test func testSkipsStateUpdatesForEquatableSubStateByDefaultWithKeyPath() {
    let store = Store(
      initialState: ReSwiftTestNonEquatable(),
      reducer: ReSwiftReducers.nonEquatableReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: \.testValue.testValue, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue == "Initial")

    store.send(.setValueString("Initial"))

    #expect(subscriber.receivedValue == "Initial")
    #expect(subscriber.newStateCallCount == 1)
  }

  /// With skipping turned off, a whole `Equatable` state is delivered again when unchanged.
  @Test func testPassesOnDuplicateStateUpdatesInCustomizedStore() {
    let store = Store(
      initialState: ReSwiftTestStringAppState(),
      automaticallySkipsRepeats: false,
      reducer: ReSwiftReducers.valueStringReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<ReSwiftTestStringAppState>()
    store.subscribe(on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.receivedValue?.testValue == "Initial")

    store.send(.setValueString("Initial"))

    #expect(subscriber.receivedValue?.testValue == "Initial")
    #expect(subscriber.newStateCallCount == 2)
  }

  /// `skip(when:)`: a selection the rule calls a repeat is held back (closure selection).
  @Test func testSkipWhenWithRegularSubstateSelection() {
    let store = Store(
      initialState: ReSwiftTestCustomAppState(substateValue: 5),
      reducer: ReSwiftReducers.customAppStateReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<ReSwiftTestCustomAppState.TestCustomSubstate>()
    store.subscribe(
      select: { $0.substate },
      isDuplicate: { $0.value == $1.value },
      on: .synchronous
    ) { subscriber.newState(state: $0) }
    #expect(subscriber.receivedValue?.value == 5)

    store.send(.setCustomSubstate(5))

    #expect(subscriber.receivedValue?.value == 5)
    #expect(subscriber.newStateCallCount == 1)
  }

  /// `skip(when:)`: a selection the rule calls a repeat is held back (key path selection).
  @Test func testSkipWhenWithKeyPath() {
    let store = Store(
      initialState: ReSwiftTestCustomAppState(substateValue: 5),
      reducer: ReSwiftReducers.customAppStateReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<ReSwiftTestCustomAppState.TestCustomSubstate>()
    store.subscribe(
      select: \.substate,
      isDuplicate: { $0.value == $1.value },
      on: .synchronous
    ) { subscriber.newState(state: $0) }
    #expect(subscriber.receivedValue?.value == 5)

    store.send(.setCustomSubstate(5))

    #expect(subscriber.receivedValue?.value == 5)
    #expect(subscriber.newStateCallCount == 1)
  }

  /// `only(when:)`: only a selection the rule accepts is delivered (closure selection).
  @Test func testOnlyWhenWithRegularSubstateSelection() {
    let store = Store(
      initialState: ReSwiftTestCustomAppState(substateValue: 5),
      reducer: ReSwiftReducers.customAppStateReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<ReSwiftTestCustomAppState.TestCustomSubstate>()
    let only: @Sendable (_ old: Int, _ new: Int) -> Bool = { $0 != $1 }
    store.subscribe(
      select: { $0.substate },
      isDuplicate: { !only($0.value, $1.value) },
      on: .synchronous
    ) { subscriber.newState(state: $0) }
    #expect(subscriber.receivedValue?.value == 5)

    store.send(.setCustomSubstate(5))

    #expect(subscriber.receivedValue?.value == 5)
    #expect(subscriber.newStateCallCount == 1)
  }

  /// `only(when:)`: only a selection the rule accepts is delivered (key path selection).
  @Test func testOnlyWhenWithKeyPath() {
    let store = Store(
      initialState: ReSwiftTestCustomAppState(substateValue: 5),
      reducer: ReSwiftReducers.customAppStateReducer
    )
    let subscriber = ReSwiftFilteredSubscriber<ReSwiftTestCustomAppState.TestCustomSubstate>()
    let only: @Sendable (_ old: Int, _ new: Int) -> Bool = { $0 != $1 }
    store.subscribe(
      select: \.substate,
      isDuplicate: { !only($0.value, $1.value) },
      on: .synchronous
    ) { subscriber.newState(state: $0) }
    #expect(subscriber.receivedValue?.value == 5)

    store.send(.setCustomSubstate(5))

    #expect(subscriber.receivedValue?.value == 5)
    #expect(subscriber.newStateCallCount == 1)
  }
}
