import CascadeStore
import CascadeTesting
import Testing

// ReSwift's AutomaticallySkipRepeatsTests (ReSwift/ReSwift,
// ReSwiftTests/AutomaticallySkipRepeatsTests.swift), re-expressed on Cascade's `Store`.
//
// ReSwift's `store.subscribe(self) { $0.select(...) }` becomes Cascade's
// `subscribe(select:on:_:)`: for an `Equatable` selection it skips repeats by itself, as ReSwift
// does by default. An explicit `.skipRepeats()` becomes `isDuplicate: { $0 == $1 }`. Delivery is
// `.synchronous`, as ReSwift's is: the handler runs before `send` returns.
@Suite(.checksResources)
struct ReSwiftAutomaticallySkipRepeatsTests {
  /// The peer's state: an age and a name.
  struct Person: Sendable, Equatable {
    var age: Int
    var name: String
  }

  /// The peer's reducer: `changeAge` sets the age and keeps the name.
  static func makeStore() -> Store<Person, ReSwiftAction> {
    Store(initialState: Person(age: 29, name: "Daniel")) { state, action in
      if case .changeAge(let age) = action { state.age = age }
    }
  }

  /// Subscribing to a substate selected by a closure delivers the current value once.
  @Test func testInitialSubscriptionWithRegularSubstateSelection() {
    let store = Self.makeStore()
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: { $0.name }, on: .synchronous) { subscriber.newState(state: $0) }
    #expect(subscriber.newStateCallCount == 1)
  }

  /// Subscribing to a substate selected by a key path delivers the current value once.
  @Test func testInitialSubscriptionWithKeyPath() {
    let store = Self.makeStore()
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: \.name, on: .synchronous) { subscriber.newState(state: $0) }
    #expect(subscriber.newStateCallCount == 1)
  }

  /// With an explicit skip-repeats rule, an action that leaves the selected name alone delivers
  /// nothing new (closure selection).
  @Test func testDispatchUnrelatedActionWithExplicitSkipRepeatsWithRegularSubstateSelection() {
    let store = Self.makeStore()
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: { $0.name }, isDuplicate: { $0 == $1 }, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.newStateCallCount == 1)
    store.send(.changeAge(30))
    #expect(subscriber.newStateCallCount == 1)
    #expect(store.currentState.age == 30)
  }

  /// With an explicit skip-repeats rule, an action that leaves the selected name alone delivers
  /// nothing new (key path selection).
  @Test func testDispatchUnrelatedActionWithExplicitSkipRepeatsWithKeyPath() {
    let store = Self.makeStore()
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: \.name, isDuplicate: { $0 == $1 }, on: .synchronous) {
      subscriber.newState(state: $0)
    }
    #expect(subscriber.newStateCallCount == 1)
    store.send(.changeAge(30))
    #expect(subscriber.newStateCallCount == 1)
    #expect(store.currentState.age == 30)
  }

  /// Without an explicit rule, an `Equatable` selection still skips an unchanged name (closure
  /// selection).
  @Test func testDispatchUnrelatedActionWithoutExplicitSkipRepeatsWithRegularSubstateSelection() {
    let store = Self.makeStore()
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: { $0.name }, on: .synchronous) { subscriber.newState(state: $0) }
    #expect(subscriber.newStateCallCount == 1)
    store.send(.changeAge(30))
    #expect(subscriber.newStateCallCount == 1)
    #expect(store.currentState.age == 30)
  }

  /// Without an explicit rule, an `Equatable` selection still skips an unchanged name (key path
  /// selection).
  @Test func testDispatchUnrelatedActionWithoutExplicitSkipRepeatsWithKeyPath() {
    let store = Self.makeStore()
    let subscriber = ReSwiftFilteredSubscriber<String>()
    store.subscribe(select: \.name, on: .synchronous) { subscriber.newState(state: $0) }
    #expect(subscriber.newStateCallCount == 1)
    store.send(.changeAge(30))
    #expect(subscriber.newStateCallCount == 1)
    #expect(store.currentState.age == 30)
  }
}
