public import CascadeStreams

/// A store on the main actor, whose isolation the compiler checks.
///
/// Every input is processed on the main actor: synchronously when sent from it (so a binding
/// reads the new state right after `send`), and hopped there when a command sends from another
/// thread. Subscribers run on the main actor, synchronously after each input. Use it for UI
/// state; use ``Store`` for state shared with background work or a headless tool, which needs
/// no main run loop.
///
/// ```swift
/// @MainActor let store = MainStore(initialState: 0) { (count: inout Int, action: Int) in
///   count += action
/// }
/// store.send(1)
/// assert(store.state == 1)
/// ```
@MainActor
public final class MainStore<State: Sendable, Action: Sendable> {
  /// The underlying store, for APIs that take a ``Store`` (streams, scoping, commands).
  public nonisolated let store: Store<State, Action>

  /// Creates a main-actor store with a reducer over typed actions.
  ///
  /// - Parameters:
  ///   - initialState: The state before any action.
  ///   - middlewares: Middlewares that see every action, in order.
  ///   - reentrancy: What to do with an action sent from the store's own processing.
  ///   - scheduler: The clock for command expiry and middleware times.
  ///   - diagnostics: Where diagnostics go; default: IssueReporting.
  ///   - reducer: Updates the state in place for an action; it must be pure.
  public init(
    initialState: State,
    middlewares: [any Middleware<Action, State>] = [],
    reentrancy: ReentrancyPolicy = .queue,
    scheduler: any Scheduler = MainScheduler.instance,
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil,
    reducer: @escaping @Sendable (inout State, Action) -> Void
  ) {
    store = Store(
      initialState: initialState,
      middlewares: middlewares,
      isolation: .mainQueue,
      reentrancy: reentrancy,
      scheduler: scheduler,
      diagnostics: diagnostics,
      reducer: reducer
    )
  }

  /// The current state.
  public var state: State { store.state }

  /// Processes `action` now, on the main actor.
  public func send(_ action: Action) { store.send(action) }

  /// Subscribes on the main actor to a selection of the state, skipping repeats.
  @discardableResult
  public func subscribe<Selected: Sendable & Equatable>(
    select: @escaping @Sendable (State) -> Selected,
    _ handler: @escaping @MainActor (Selected) -> Void
  ) -> any Disposable {
    let handler = UncheckedMainActorHandler(handler)
    return store.subscribe(select: select, on: .synchronous) { value in
      MainActor.assumeIsolated { handler.call(value) }
    }
  }

  /// Subscribes on the main actor to the whole state.
  @discardableResult
  public func subscribe(_ handler: @escaping @MainActor (State) -> Void) -> any Disposable {
    let handler = UncheckedMainActorHandler(handler)
    return store.subscribe(on: .synchronous) { value in
      MainActor.assumeIsolated { handler.call(value) }
    }
  }

  /// Runs an asynchronous command; its sends are processed on the main actor.
  public func run(
    _ name: String = "run",
    id: (any Hashable & Sendable)? = nil,
    cancelInFlight: Bool = false,
    _ operation: @escaping @Sendable (State, Store<State, Action>) async throws -> Void
  ) {
    store.run(name, id: id, cancelInFlight: cancelInFlight, operation)
  }

  /// Cancels the commands started with `id`.
  public func cancel(id: some Hashable & Sendable) { store.cancel(id: id) }

  /// Waits until the store is at rest: commands ended and every input processed
  /// (``Store/finish()``).
  public func finish() async { await store.finish() }

  /// Replays `actions` in the store's replay mode: their states, and no effect
  /// (``Store/replay(_:)``).
  @discardableResult
  public func replay(_ actions: some Sequence<Action>) async -> ReplayReport {
    await store.replay(actions)
  }
}

/// A main-actor closure carried through the store's `Sendable` subscription machinery.
private struct UncheckedMainActorHandler<Value>: @unchecked Sendable {
  // Safety: `call` is only invoked inside `MainActor.assumeIsolated`, on the main actor, which
  // is where the store delivers (its processing runs on the main queue).
  let body: @MainActor (Value) -> Void

  init(_ body: @escaping @MainActor (Value) -> Void) {
    self.body = body
  }

  @MainActor
  func call(_ value: Value) { body(value) }
}
