import CascadeStore
import CascadeStreams

// The fakes of ReSwift's test suite (ReSwift/ReSwift, ReSwiftTests/TestFakes.swift and the
// helpers declared beside its cases), re-expressed for Cascade's typed `Store`.
//
// ReSwift's actions are structs conforming to an untyped `Action` protocol and its reducers take
// `(Action, State?) -> State`, casting the action and building a default state from `nil`.
// Cascade's reducers are typed, `(inout State, Action) -> Void`, and a store always starts from
// a given state; so the peer's action structs become the cases of one `ReSwiftAction` enum and
// each peer reducer becomes a typed reducer over its state. ReSwift's `StoreSubscriber` objects
// become main-actor `Subscriber`s (`store.add(subscriber:)`) or, for subscriptions with
// ReSwift's `skipRepeats`/`skip(when:)`/`only(when:)`, recorders fed by Cascade's
// `subscribe(select:isDuplicate:on:_:)`.

// MARK: - States

/// ReSwift's `TestAppState`: an optional number.
///
/// Deliberately not `Equatable`, as in the peer, so no subscription skips its states by default.
struct ReSwiftTestAppState: Sendable {
  var testValue: Int?

  init(testValue: Int? = nil) {
    self.testValue = testValue
  }
}

/// ReSwift's `TestStringAppState`: an `Equatable` string state that starts at `"Initial"`.
struct ReSwiftTestStringAppState: Sendable, Equatable {
  var testValue = "Initial"
}

/// ReSwift's `NonEquatable`: a value the store cannot compare.
struct ReSwiftNonEquatable: Sendable {
  var testValue = "Initial"
}

/// ReSwift's `TestNonEquatable`: a state holding a ``ReSwiftNonEquatable``.
struct ReSwiftTestNonEquatable: Sendable {
  var testValue = ReSwiftNonEquatable()
}

/// ReSwift's `TestCustomAppState`: a state whose substate is compared by a custom rule.
struct ReSwiftTestCustomAppState: Sendable {
  /// A substate that is not `Equatable`: subscribers compare its `value` themselves.
  struct TestCustomSubstate: Sendable {
    var value: Int
  }

  var substate: TestCustomSubstate

  init(substateValue value: Int = 0) {
    substate = TestCustomSubstate(value: value)
  }
}

/// ReSwift's `OtherState`, part of ``ReSwiftTestComplexAppState``.
struct ReSwiftOtherState: Sendable {
  var name: String?
  var age: Int?
}

/// ReSwift's `TestComplexAppState`: a value and an optional nested state.
struct ReSwiftTestComplexAppState: Sendable {
  var testValue: Int?
  var otherState: ReSwiftOtherState?
}

// MARK: - Actions

/// The actions of ReSwift's suite, as one typed enum.
enum ReSwiftAction: Sendable {
  /// `NoOpAction`: changes nothing.
  case noOp
  /// `SetValueAction`.
  case setValue(Int?)
  /// `SetValueStringAction`.
  case setValueString(String)
  /// `SetCustomSubstateAction`.
  case setCustomSubstate(Int)
  /// `SetNonEquatableAction`.
  case setNonEquatable(ReSwiftNonEquatable)
  /// `SetOtherStateAction`.
  case setOtherState(ReSwiftOtherState)
  /// `ChangeAge` of AutomaticallySkipRepeatsTests.
  case changeAge(Int)
  /// `TracerAction` of StoreSubscriptionTests' retain cycle cases.
  case tracer

  /// The string of a `setValueString` action, `nil` for the others.
  var stringValue: String? {
    if case .setValueString(let value) = self { value } else { nil }
  }
}

// MARK: - Reducers

/// ReSwift's reducers, typed.
enum ReSwiftReducers {
  /// `TestReducer`: `setValue` sets the number.
  @Sendable static func testReducer(state: inout ReSwiftTestAppState, action: ReSwiftAction) {
    if case .setValue(let value) = action { state.testValue = value }
  }

  /// `TestValueStringReducer`: `setValueString` sets the string.
  @Sendable static func valueStringReducer(
    state: inout ReSwiftTestStringAppState,
    action: ReSwiftAction
  ) {
    if case .setValueString(let value) = action { state.testValue = value }
  }

  /// `TestCustomAppStateReducer`: `setCustomSubstate` sets the substate's value.
  @Sendable static func customAppStateReducer(
    state: inout ReSwiftTestCustomAppState,
    action: ReSwiftAction
  ) {
    if case .setCustomSubstate(let value) = action { state.substate.value = value }
  }

  /// `TestNonEquatableReducer`: `setNonEquatable` replaces the value.
  @Sendable static func nonEquatableReducer(
    state: inout ReSwiftTestNonEquatable,
    action: ReSwiftAction
  ) {
    if case .setNonEquatable(let value) = action { state.testValue = value }
  }

  /// `TestComplexAppStateReducer`: `setValue` sets the number, `setOtherState` the nested state.
  @Sendable static func complexAppStateReducer(
    state: inout ReSwiftTestComplexAppState,
    action: ReSwiftAction
  ) {
    switch action {
    case .setValue(let value): state.testValue = value
    case .setOtherState(let other): state.otherState = other
    default: break
    }
  }
}

extension Store where State == ReSwiftTestAppState, Action == ReSwiftAction {
  /// The store most of ReSwift's cases build: `Store(reducer: TestReducer().handleAction,
  /// state: TestAppState())`.
  static func reSwiftTestStore(
    state: ReSwiftTestAppState = ReSwiftTestAppState(),
    automaticallySkipsRepeats: Bool = true
  ) -> Store<ReSwiftTestAppState, ReSwiftAction> {
    Store(
      initialState: state,
      automaticallySkipsRepeats: automaticallySkipsRepeats,
      reducer: ReSwiftReducers.testReducer
    )
  }
}

// MARK: - Subscribers

/// ReSwift's `TestStoreSubscriber` and `TestFilteredSubscriber` as a Cascade `Subscriber`: it
/// records every state the store delivers on the main actor.
@MainActor
final class ReSwiftTestSubscriber<Value: Sendable>: Subscriber {
  /// Every state received, in order.
  var receivedStates: [Value] = []

  /// The last state received.
  var receivedValue: Value? { receivedStates.last }

  /// How many times a state was delivered.
  var newStateCallCount: Int { receivedStates.count }

  func update(with state: Value) {
    receivedStates.append(state)
  }
}

/// ReSwift's `BlockSubscriber` and `CallbackStoreSubscriber`: hands each state to a closure, on
/// the main actor.
@MainActor
final class ReSwiftBlockSubscriber<Value: Sendable>: Subscriber {
  private let block: @MainActor (Value) -> Void

  init(block: @escaping @MainActor (Value) -> Void) {
    self.block = block
  }

  func update(with state: Value) {
    block(state)
  }
}

/// ReSwift's `DispatchingSubscriber`: sends `setValue(5)` to its store for any other state.
///
/// It holds the store weakly, so that the store (which holds its subscribers weakly) is released.
@MainActor
final class ReSwiftDispatchingSubscriber: Subscriber {
  weak var store: Store<ReSwiftTestAppState, ReSwiftAction>?
  /// Every state received, in order.
  var receivedStates: [Int?] = []

  init(store: Store<ReSwiftTestAppState, ReSwiftAction>) {
    self.store = store
  }

  func update(with state: ReSwiftTestAppState) {
    receivedStates.append(state.testValue)
    // Guarded, as the peer's is, so that it does not dispatch forever.
    if state.testValue != 5 { store?.send(.setValue(5)) }
  }
}

/// ReSwift's `TestFilteredSubscriber` for subscriptions made through Cascade's
/// `subscribe(select:isDuplicate:on:_:)`, whose handler runs on the thread that processed the
/// input (``Delivery/synchronous``): it records what it receives under a lock.
final class ReSwiftFilteredSubscriber<Value: Sendable>: Sendable {
  private let storage = LockedValue<[Value]>([])

  /// Records a delivered selection: ReSwift's `newState(state:)`.
  func newState(state: Value) {
    storage.withLock { $0.append(state) }
  }

  /// Every selection received, in order.
  var receivedStates: [Value] { storage.withLock { $0 } }

  /// The last selection received.
  var receivedValue: Value? { receivedStates.last }

  /// How many times a selection was delivered.
  var newStateCallCount: Int { receivedStates.count }
}

// MARK: - Probes

/// An object whose release a test observes through a weak reference: it stands for what a
/// subscription holds (ReSwift's tests override its `SubscriptionBox` to see it deinitialize).
final class ReSwiftProbe: Sendable {}

// MARK: - Delivery to subscribers

extension Store {
  /// Waits until every state this store has handed to the main queue for its subscribers has
  /// been delivered.
  ///
  /// `add(subscriber:)` delivers through the shared `MainScheduler`: synchronously on the main
  /// actor only while nothing of that scheduler is waiting, process-wide. When another test's
  /// background delivery is waiting there, ours is enqueued behind it (and states that arrive
  /// meanwhile replace the waiting one). So tests await this after each step, instead of
  /// assuming the delivery ran before `send` returned: it waits for the store's deliveries
  /// themselves (``Store/deliveryBacklog``), through the main queue's order.
  @MainActor
  func delivered() async {
    await settle()
    while deliveryBacklog > 0 {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        MainScheduler.instance.schedule { continuation.resume() }
      }
    }
  }
}
