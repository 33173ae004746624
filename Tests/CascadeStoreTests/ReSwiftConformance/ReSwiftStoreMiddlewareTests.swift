import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReSwift's StoreMiddlewareTests (ReSwift/ReSwift, ReSwiftTests/StoreMiddlewareTests.swift),
// re-expressed on Cascade's `Middleware` protocol.
//
// A ReSwift middleware wraps `next`: it may change the action before passing it on, swallow it,
// or `dispatch` a new one at any point, and that dispatch runs the new action through the whole
// chain and the reducer at once, recursively. A Cascade middleware changes or blocks an action
// in `intercept(_:state:)`, before the reducer, and sends new actions from `process(_:)`, after
// it, through `record.dispatcher`; those are queued behind the current action (the middleware
// contract: "never recursively").
@Suite(.checksResources)
@MainActor
struct ReSwiftStoreMiddlewareTests {
  /// ReSwift's `firstMiddleware`: appends " First Middleware" to every string it sets.
  struct FirstMiddleware<State: Sendable>: Middleware {
    func intercept(_ input: ReSwiftAction, state: State) -> ReSwiftAction? {
      guard let value = input.stringValue else { return input }
      return .setValueString(value + " First Middleware")
    }
  }

  /// ReSwift's `secondMiddleware`: appends " Second Middleware" to every string it sets.
  struct SecondMiddleware<State: Sendable>: Middleware {
    func intercept(_ input: ReSwiftAction, state: State) -> ReSwiftAction? {
      guard let value = input.stringValue else { return input }
      return .setValueString(value + " Second Middleware")
    }
  }

  /// ReSwift's `dispatchingMiddleware`: for every number set, dispatches setting its text.
  struct DispatchingMiddleware<State: Sendable>: Middleware {
    var interceptsInputs: Bool { false }

    func process(_ record: MiddlewareRecord<ReSwiftAction, State>) {
      if case .setValue(let value) = record.input {
        record.dispatcher.dispatch(.setValueString("\(value ?? 0)"))
      }
    }
  }

  /// ReSwift's `stateAccessingMiddleware`: in state "OK", it swallows actions for "Not OK".
  ///
  /// While the state reads "OK", every action but "Not OK" becomes `noOp` before the reducer;
  /// once that `noOp` is reduced, the state (still "OK") is read again and "Not OK" is
  /// dispatched.
  struct StateAccessingMiddleware: Middleware {
    func intercept(
      _ input: ReSwiftAction,
      state: ReSwiftTestStringAppState
    ) -> ReSwiftAction? {
      // The guard against endless recursion: "Not OK" itself always goes through.
      if state.testValue == "OK" && input.stringValue != "Not OK" { return .noOp }
      return input
    }

    func process(_ record: MiddlewareRecord<ReSwiftAction, ReSwiftTestStringAppState>) {
      if case .noOp = record.input, record.state.testValue == "OK" {
        record.dispatcher.dispatch(.setValueString("Not OK"))
      }
    }
  }

  /// Records every action the store reduced, in order (a middleware placed last sees them all).
  static func reducedActions(
    into recorder: Recorder<String>
  ) -> ClosureMiddleware<ReSwiftAction, ReSwiftTestStringAppState> {
    ClosureMiddleware { record in recorder.append("\(record.input)") }
  }

  /// Middlewares can change an action on its way to the reducer, in the order they are given.
  @Test func testDecorateDispatch() async {
    let store = Store(
      initialState: ReSwiftTestStringAppState(),
      middlewares: [FirstMiddleware(), SecondMiddleware()],
      reducer: ReSwiftReducers.valueStringReducer
    )
    let subscriber = ReSwiftTestSubscriber<ReSwiftTestStringAppState>()
    store.add(subscriber: subscriber)
    await store.delivered()

    store.send(.setValueString("OK"))
    await store.delivered()

    #expect(store.currentState.testValue == "OK First Middleware Second Middleware")
    #expect(subscriber.receivedValue?.testValue == "OK First Middleware Second Middleware")
    store.remove(subscriber: subscriber)
  }

  /// A middleware can dispatch a new action, which goes through every middleware and the
  /// reducer.
  @Test func testCanDispatch() async {
    let reduced = Recorder<String>()
    let store = Store(
      initialState: ReSwiftTestStringAppState(),
      middlewares: [
        FirstMiddleware(), SecondMiddleware(), DispatchingMiddleware(),
        Self.reducedActions(into: reduced),
      ],
      reducer: ReSwiftReducers.valueStringReducer
    )
    let subscriber = ReSwiftTestSubscriber<ReSwiftTestStringAppState>()
    store.add(subscriber: subscriber)
    await store.delivered()

    store.send(.setValue(10))
    await store.delivered()

    #expect(store.currentState.testValue == "10 First Middleware Second Middleware")
    // Deliberate difference: ReSwift reduces the action a middleware dispatches first, recursively,
    // before the action that middleware was passing on; Cascade reduces it after, once the
    // current action has been fully processed; the middleware contract (MiddlewareContract.md,
    // "Sending inputs") says dispatched inputs are queued, never reduced recursively.
    #expect(
      reduced.values == [
        "\(ReSwiftAction.setValue(10))",
        "\(ReSwiftAction.setValueString("10 First Middleware Second Middleware"))",
      ]
    )
    store.remove(subscriber: subscriber)
  }

  /// A middleware reads the store's state, and from it swallows an action and dispatches another.
  @Test func testMiddlewareCanAccessState() {
    var state = ReSwiftTestStringAppState()
    state.testValue = "OK"
    let store = Store(
      initialState: state,
      middlewares: [StateAccessingMiddleware()],
      reducer: ReSwiftReducers.valueStringReducer
    )

    store.send(.setValueString("Action That Won't Go Through"))

    #expect(store.currentState.testValue == "Not OK")
  }

  /// Middlewares that change after the store was made: the ones added see the next action, the
  /// ones removed do not.
  ///
  /// Deliberate difference: ReSwift's `store.middleware` is a settable array. Cascade's stores
  /// take their middlewares at creation and never change them: the engine reads the stack on
  /// every input without a lock (and skips it entirely when there is none), which a settable
  /// array would cost a lock per input. A store whose middlewares change keeps one middleware
  /// that forwards to a list it holds under a lock, as here.
  @Test func testCanMutateMiddlewareAfterInit() {
    typealias AnyMiddleware = ClosureMiddleware<ReSwiftAction, ReSwiftTestStringAppState>
    let current = LockedValue<[AnyMiddleware]>([])
    let store = Store(
      initialState: ReSwiftTestStringAppState(),
      middlewares: [
        AnyMiddleware { record in
          for middleware in current.withLock({ $0 }) { middleware.process(record) }
        }
      ],
      reducer: ReSwiftReducers.valueStringReducer
    )
    let added = LockedValue(false)

    // Adding
    current.withLock { $0.append(AnyMiddleware { _ in added.withLock { $0 = true } }) }
    store.send(.setValueString(""))
    #expect(added.withLock { $0 })

    // Removing
    added.withLock { $0 = false }
    current.withLock { $0 = [] }
    store.send(.setValueString(""))
    #expect(!added.withLock { $0 })
  }
}
