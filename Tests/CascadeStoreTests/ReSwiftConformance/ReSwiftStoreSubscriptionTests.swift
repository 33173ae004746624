import CascadeStore
import CascadeTesting
import Testing

// ReSwift's StoreSubscriptionTests (ReSwift/ReSwift, ReSwiftTests/StoreSubscriptionTests.swift),
// re-expressed on Cascade's `Store`.
//
// ReSwift's subscriber objects are Cascade's main-actor `Subscriber`s, added with
// `store.add(subscriber:)` and removed with `store.remove(subscriber:)`; the suite runs on the
// main actor. A delivery on the main actor runs before `send` returns unless another delivery
// of the shared main scheduler is waiting (another test's, from a background thread); the tests
// await `delivered()` after each step so that they hold either way. ReSwift's tests read its
// internal `store.subscriptions`; Cascade's public count of live subscriptions is
// `subscriptionCount`. ReSwift's retain-cycle cases subclass the store to watch its
// subscription box deinitialize; Cascade's `Store` is final and its boxes internal, so those
// cases watch, through weak references, what the subscription holds (the subscriber, the
// selector's captures) and the store itself.
@Suite(.checksResources)
@MainActor
struct ReSwiftStoreSubscriptionTests {
  typealias TestSubscriber = ReSwiftTestSubscriber<ReSwiftTestAppState>

  /// The store holds its subscribers weakly: releasing one releases it.
  @Test func testDoesNotCaptureStrongly() async {
    let store = Store.reSwiftTestStore()
    var subscriber: TestSubscriber? = TestSubscriber()
    weak let weakSubscriber = subscriber

    store.add(subscriber: subscriber!)
    await store.delivered()
    #expect(store.subscriptionCount == 1)
    #expect(subscriber?.newStateCallCount == 1)

    subscriber = nil
    #expect(weakSubscriber == nil)
  }

  /// Subscribers that were released are dropped before the next state is delivered.
  @Test func testRemoveSubscribers() async {
    let store = Store.reSwiftTestStore()
    var subscriber1: TestSubscriber? = TestSubscriber()
    var subscriber2: TestSubscriber? = TestSubscriber()

    store.add(subscriber: subscriber1!)
    await store.delivered()
    store.add(subscriber: subscriber2!)
    await store.delivered()
    store.send(.setValue(3))
    await store.delivered()
    #expect(store.subscriptionCount == 2)
    #expect(subscriber1?.receivedValue?.testValue == 3)
    #expect(subscriber2?.receivedValue?.testValue == 3)

    subscriber1 = nil
    store.send(.setValue(5))
    await store.delivered()
    #expect(store.subscriptionCount == 1)
    #expect(subscriber2?.receivedValue?.testValue == 5)

    subscriber2 = nil
    store.send(.setValue(8))
    await store.delivered()
    #expect(store.subscriptionCount == 0)
  }

  /// Subscribing a subscriber again replaces its subscription with the new one.
  @Test func testDuplicateSubscription() async {
    let store = Store.reSwiftTestStore()
    let subscriber = TestSubscriber()

    // The first subscription, then one that skips repeated values.
    store.add(subscriber: subscriber)
    await store.delivered()
    store.add(
      subscriber: subscriber,
      selector: { $0 },
      isDuplicate: { $0.testValue == $1.testValue }
    )
    await store.delivered()

    // Each subscription delivers the current state once.
    #expect(subscriber.newStateCallCount == 2)

    for _ in 0..<4 {
      store.send(.setValue(3))
      await store.delivered()
    }

    // One more state only: the second subscription replaced the first and skips repeats.
    #expect(subscriber.newStateCallCount == 3)
    store.remove(subscriber: subscriber)
  }

  /// A new subscriber receives the current state at once.
  @Test func testDispatchInitialValue() async {
    let store = Store.reSwiftTestStore(state: ReSwiftTestAppState(testValue: 7))
    let subscriber = TestSubscriber()

    store.add(subscriber: subscriber)
    await store.delivered()

    #expect(subscriber.receivedStates.map(\.testValue) == [7])
    store.remove(subscriber: subscriber)
  }

  /// A subscriber receives the current state, then each new one.
  @Test func testDispatchStateChanges() async {
    let store = Store.reSwiftTestStore()
    let subscriber = TestSubscriber()

    store.add(subscriber: subscriber)
    await store.delivered()
    store.send(.setValue(9))
    await store.delivered()

    #expect(subscriber.receivedStates.map(\.testValue) == [nil, 9])
    store.remove(subscriber: subscriber)
  }

  /// A subscriber that arrives after a change receives the changed state, not the initial one.
  @Test func testDispatchInitialStateAfterStateChange() async {
    let store = Store.reSwiftTestStore()
    let subscriber = TestSubscriber()

    store.send(.setValue(13))
    store.add(subscriber: subscriber)
    await store.delivered()

    #expect(subscriber.receivedStates.map(\.testValue) == [13])
    store.remove(subscriber: subscriber)
  }

  /// A subscriber may send an action while it is being notified; the action is reduced.
  @Test func testAllowDispatchWithinObserver() async {
    let store = Store.reSwiftTestStore()
    let subscriber = ReSwiftDispatchingSubscriber(store: store)
    let witness = TestSubscriber()

    store.add(subscriber: subscriber)
    await store.delivered()
    store.add(subscriber: witness)
    await store.delivered()
    store.send(.setValue(2))
    await store.delivered()

    #expect(store.currentState.testValue == 5)
    // Cascade queues the subscriber's send behind the delivery in progress, so every subscriber
    // sees the states in the order they were produced.
    #expect(subscriber.receivedStates == [nil, 5, 2, 5])
    #expect(witness.receivedStates.map(\.testValue) == [5, 2, 5])
    store.remove(subscriber: subscriber)
    store.remove(subscriber: witness)
  }

  /// A removed subscriber receives nothing until it subscribes again, and then the current
  /// state first.
  @Test func testDontDispatchToUnsubscribers() async {
    let store = Store.reSwiftTestStore()
    let subscriber = TestSubscriber()

    store.send(.setValue(5))
    store.add(subscriber: subscriber)
    await store.delivered()
    store.send(.setValue(10))
    await store.delivered()

    store.remove(subscriber: subscriber)
    // Missed: not subscribed.
    store.send(.setValue(15))
    store.send(.setValue(25))

    store.add(subscriber: subscriber)
    await store.delivered()

    store.send(.setValue(20))
    await store.delivered()

    #expect(subscriber.receivedStates.map(\.testValue) == [5, 10, 25, 20])
    store.remove(subscriber: subscriber)
  }

  /// Subscribing the same subscriber twice keeps one subscription.
  @Test func testIgnoreIdenticalSubscribers() async {
    let store = Store.reSwiftTestStore()
    let subscriber = TestSubscriber()

    store.add(subscriber: subscriber)
    await store.delivered()
    store.add(subscriber: subscriber)
    await store.delivered()

    #expect(store.subscriptionCount == 1)
    // The second `add` replaced the first subscription, and delivered the current state again.
    #expect(subscriber.newStateCallCount == 2)
    store.send(.tracer)
    await store.delivered()
    #expect(subscriber.newStateCallCount == 3)
    store.remove(subscriber: subscriber)
  }

  /// Subscribing the same subscriber twice with a selection keeps one subscription.
  @Test func testIgnoreIdenticalSubstateSubscribers() async {
    let store = Store.reSwiftTestStore()
    let subscriber = TestSubscriber()

    store.add(subscriber: subscriber, selector: { $0 })
    await store.delivered()
    store.add(subscriber: subscriber, selector: { $0 })
    await store.delivered()

    #expect(store.subscriptionCount == 1)
    // The second `add` replaced the first subscription, and delivered the current state again.
    #expect(subscriber.newStateCallCount == 2)
    store.send(.tracer)
    await store.delivered()
    #expect(subscriber.newStateCallCount == 3)
    store.remove(subscriber: subscriber)
  }

  /// A subscription added from within another subscriber's delivery, whose own delivery sends
  /// an action, is kept: both subscriptions are live afterwards.
  @Test func testNewStateModifyingSubscriptionsDoesNotDiscardNewSubscription() {
    let store = Store.reSwiftTestStore()
    let received1 = ReSwiftFilteredSubscriber<Int?>()
    let received2 = ReSwiftFilteredSubscriber<Int?>()

    // Subscriber 2 skips everything after its first state, and sends `setValue(2)` on it.
    let subscriber2: @Sendable (ReSwiftTestAppState) -> Void = { [weak store] state in
      received2.newState(state: state.testValue)
      store?.send(.setValue(2))
    }
    // Subscriber 1 only takes states whose value is 1, and subscribes subscriber 2 on one.
    store.subscribe(
      select: { $0 },
      isDuplicate: { _, new in new.testValue != 1 },
      on: .synchronous
    ) { [weak store] state in
      received1.newState(state: state.testValue)
      if state.testValue == 1 {
        store?.subscribe(select: { $0 }, isDuplicate: { _, _ in true }, on: .synchronous) {
          subscriber2($0)
        }
      }
    }

    store.send(.setValue(1))

    #expect(store.subscriptionCount == 2)
    #expect(received1.receivedStates == [nil, 1])
    #expect(received2.receivedStates == [1])
    #expect(store.currentState.testValue == 2)
  }

  /// Once a subscriber is removed and the store released, nothing of the subscription is kept
  /// alive and nothing more is delivered (a subscription of the whole state).
  @Test func testRetainCycle_OriginalSubscription() async {
    weak var weakStore: Store<ReSwiftTestAppState, ReSwiftAction>?
    let subscriber = TestSubscriber()
    do {
      let store = Store.reSwiftTestStore()
      weakStore = store

      // Preconditions
      #expect(subscriber.newStateCallCount == 0)
      #expect(store.subscriptionCount == 0)

      store.add(subscriber: subscriber)
      await store.delivered()
      #expect(subscriber.newStateCallCount == 1)

      store.send(.tracer)
      await store.delivered()
      #expect(subscriber.newStateCallCount == 2)
      store.remove(subscriber: subscriber)

      #expect(store.subscriptionCount == 0)
      store.send(.tracer)
      await store.delivered()
      #expect(subscriber.newStateCallCount == 2)
    }
    #expect(weakStore == nil)
  }

  /// Once a subscriber with a selection is removed and the store released, the selection (and
  /// what it captures) is released and nothing more is delivered.
  @Test func testRetainCycle_TransformedSubscription() async {
    weak var weakStore: Store<ReSwiftTestAppState, ReSwiftAction>?
    weak var weakProbe: ReSwiftProbe?
    let subscriber = ReSwiftTestSubscriber<Int?>()
    do {
      // As in ReSwift's case: the `Int?` selection is delivered even when unchanged.
      let store = Store.reSwiftTestStore(automaticallySkipsRepeats: false)
      weakStore = store
      let probe = ReSwiftProbe()
      weakProbe = probe

      // Preconditions
      #expect(subscriber.newStateCallCount == 0)
      #expect(store.subscriptionCount == 0)

      store.add(subscriber: subscriber) { state in
        withExtendedLifetime(probe) { state.testValue }
      }
      await store.delivered()
      #expect(subscriber.newStateCallCount == 1)

      store.send(.tracer)
      await store.delivered()
      #expect(subscriber.newStateCallCount == 2)
      store.remove(subscriber: subscriber)

      #expect(store.subscriptionCount == 0)
      store.send(.tracer)
      await store.delivered()
      #expect(subscriber.newStateCallCount == 2)
    }
    #expect(weakStore == nil)
    #expect(weakProbe == nil)
  }
}
