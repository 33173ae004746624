public import CascadeStreams
import Synchronization

/// The single source of truth: a state that changes only by processing inputs, one at a time.
///
/// A store serves two styles, both first-class:
///
/// - **Reducer (Redux/ReSwift).** Typed actions and a reducer `(inout State, Action) -> Void`.
///
///   ```swift
///   enum CounterAction: Sendable { case increment, decrement }
///   let store = Store(initialState: 0) { (count: inout Int, action: CounterAction) in
///     switch action {
///     case .increment: count += 1
///     case .decrement: count -= 1
///     }
///   }
///   store.send(.increment)
///   ```
///
/// - **Reacting state (the "Reactor" pattern).** A ``State`` that reacts to ``Event``s, in a
///   ``Core``: `Core(initialState: RPGState(), middlewares: [LevelUpAnnouncer()])`, then
///   `core.send(LevelUp())`.
///
/// **Threads.** Send from any thread. Inputs are processed one at a time, in the order they were
/// sent; an input sent while another is being processed (by another thread, or from a
/// subscriber, middleware or command of this store) is queued and processed next — never
/// recursively, never dropped (see ``ReentrancyPolicy`` for the same-thread case). Where
/// processing happens is chosen at creation (``StoreIsolation``); ``MainStore`` is the
/// main-actor store the compiler checks.
///
/// **Performance.** The reducer mutates the state in place; the store never copies the whole
/// state per input, and keeps no second copy alive that would force one.
///
/// **Lifetime.** Releasing the store cancels its commands in flight and ends its subscriptions;
/// ``shutdown(cancellingCommands:)`` does it gracefully. Commands receive a handle that does not
/// keep the store alive; inputs sent through it afterwards are dropped with a diagnostic. When
/// the release (or `shutdown`) returns, no subscriber of the store is running and none will run:
/// if another thread is delivering a state at that moment, the release waits for that delivery
/// to return. A subscriber must therefore never block waiting for the thread that releases its
/// store (a `DispatchQueue.main.sync` in a subscriber on a background thread, while the main
/// thread releases the store, would wait forever); releasing the store from its own subscriber
/// does not wait.
public final class Store<State: Sendable, Action: Sendable>: Sendable {
  /// The engine, which a reactor's core and a feedback loop keep to send to directly.
  @usableFromInline package let engine: StoreEngine<State, Action>
  private let ownsEngine: Bool
  /// The effect this handle was given to (a command's task, a stream), whose inputs are dropped
  /// once it is cancelled.
  @usableFromInline let origin: EffectOrigin?

  /// Creates a store with a reducer over typed actions.
  ///
  /// - Parameters:
  ///   - initialState: The state before any action.
  ///   - middlewares: Middlewares that see every action, in order.
  ///   - isolation: Where actions are processed. Default: on the sending thread, with a lock.
  ///   - reentrancy: What to do with an action sent from the store's own processing.
  ///   - scheduler: The clock for command expiry and middleware times.
  ///   - diagnostics: Where diagnostics go; default: IssueReporting.
  ///   - automaticallySkipsRepeats: Whether a subscription to an `Equatable` state or selection
  ///     skips a value equal to the last one it received (see ``automaticallySkipsRepeats``).
  ///     Default `true`, as in ReSwift.
  ///   - reducer: Updates the state in place for an action. It must be pure: it runs with the
  ///     store's lock held, so that it can mutate in place while other threads read `state`.
  public init(
    initialState: State,
    middlewares: [any Middleware<Action, State>] = [],
    isolation: StoreIsolation = .callerThread,
    reentrancy: ReentrancyPolicy = .queue,
    scheduler: any Scheduler = ConcurrentDispatchQueueScheduler(),
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil,
    automaticallySkipsRepeats: Bool = true,
    reducer: @escaping @Sendable (inout State, Action) -> Void
  ) {
    engine = StoreEngine(
      state: initialState,
      reducer: reducer,
      middlewares: middlewares,
      scheduler: scheduler,
      isolation: isolation,
      reentrancy: reentrancy,
      diagnostics: diagnostics,
      automaticallySkipsRepeats: automaticallySkipsRepeats
    )
    ownsEngine = true
    origin = nil
  }

  /// A handle on `engine` that does not own it, for commands.
  @usableFromInline
  init(engine: StoreEngine<State, Action>, origin: EffectOrigin?) {
    self.engine = engine
    ownsEngine = false
    self.origin = origin
  }

  /// A store on `engine`, owning it (closing it when released) if `owning`.
  init(engine: StoreEngine<State, Action>, owning: Bool) {
    self.engine = engine
    ownsEngine = owning
    origin = nil
  }

  deinit {
    if ownsEngine { engine.close() }
  }

  /// The current state.
  ///
  /// Safe to read from any thread; the value is one the store actually published. Reading it
  /// from inside the reducer is a programming error (the reducer has the state as `inout`).
  public var currentState: State { engine.state }

  /// The current state: the Reactor seed's name (`core.state`) for ``currentState``.
  public var state: State { engine.state }

  /// Whether a subscription to an `Equatable` state or selection skips a value equal to the last
  /// one it received, unless it says otherwise: ``subscribe(on:_:)-7gwjp``, ``add(subscriber:)-5zzpk``,
  /// ``subscribe(select:on:_:)``, ``select(_:)-1api0``.
  ///
  /// `true` unless the store was made with `automaticallySkipsRepeats: false`, as in ReSwift; a
  /// reactor's `state` stream skips equal states too. The ``states`` stream (of every
  /// architecture) delivers every state, and a subscription with an explicit `isDuplicate`
  /// uses it instead.
  public var automaticallySkipsRepeats: Bool { engine.automaticallySkipsRepeats }

  /// Sends an action.
  ///
  /// It is processed before `send` returns if no other thread is processing (with
  /// ``StoreIsolation/callerThread``), otherwise queued.
  ///
  /// Always inlined, with its action wrapped (`SentInput`): for an existential action type,
  /// the store keeps the caller's box, copies nothing and boxes nothing again.
  @inlinable @inline(__always)
  public func send(_ action: Action) {
    engine.submitAction(SentInput(action), origin: origin)
  }

  /// Sends an action, and calls `completion` once it has been processed, with the state it
  /// produced: a way to know when one dispatch has taken effect (ReSwift's dispatch callback).
  ///
  /// ```swift
  /// store.send(.load(page)) { state in print("now at", state.page) }
  /// ```
  ///
  /// `completion` runs on the thread processing the store's inputs, right after the action was
  /// reduced, its middlewares ran and the synchronous subscribers were notified, with no lock
  /// held; an input it sends is queued. If the store has shut down, the action is dropped and
  /// `completion` is not called.
  public func send(_ action: Action, completion: @escaping @Sendable (State) -> Void) {
    let origin = origin
    let engine = engine
    engine.submit(
      .run(
        {
          engine.process(.action(action, origin: origin), sender: nil)
          completion(engine.machine.pointee.state)
        },
        dropped: {}
      )
    )
  }

  /// Fires a command: it runs with a copy of the state, in order with the actions sent before
  /// it, or waits until ``Command/canExecute(state:)`` allows it.
  ///
  /// - Parameters:
  ///   - command: The command.
  ///   - id: An id to cancel it by with ``cancel(id:)`` while it waits.
  @inlinable
  public func fire<C: Command>(command: C, id: (any Hashable & Sendable)? = nil)
  where C.CommandState == State, C.Action == Action {
    var box = CommandBox(command)
    box.id = id.map { CommandID($0) }
    engine.submit(.command(box))
  }

  /// Fires an asynchronous command; the store tracks its task and cancels it on shutdown.
  ///
  /// - Parameters:
  ///   - command: The command.
  ///   - id: An id to cancel it by with ``cancel(id:)``, waiting or running.
  public func fire<C: AsyncCommand>(command: C, id: (any Hashable & Sendable)? = nil)
  where C.CommandState == State, C.Action == Action {
    var box = CommandBox(command)
    box.id = id.map { CommandID($0) }
    engine.submit(.command(box))
  }

  /// Runs `operation` as an asynchronous command with a copy of the current state.
  ///
  /// The command's task begins when the store reaches it, in order with the inputs sent before,
  /// on the thread processing them, and runs there until its first suspension: commands started
  /// one after another (by one input, or by several `run` calls in a row) begin in that order,
  /// always. Work before the first `await` should be short; what follows runs concurrently.
  ///
  /// ```swift
  /// store.run { state, store in
  ///   let page = try await api.load(page: state.nextPage)
  ///   store.send(.loaded(page))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: Names the command in diagnostics.
  ///   - id: An id to cancel it by with ``cancel(id:)``.
  ///   - cancelInFlight: Whether to cancel the commands in flight with the same `id` first —
  ///     the "latest search wins" case.
  ///   - operation: The work, with a copy of the state and a handle to send through.
  @inlinable
  public func run(
    _ name: String = "run",
    id: (any Hashable & Sendable)? = nil,
    cancelInFlight: Bool = false,
    _ operation: @escaping @Sendable (State, Store<State, Action>) async throws -> Void
  ) {
    guard let id else {
      engine.submitCommand(named: name, operation)
      return
    }
    var command = CommandBox(name: name, operation: operation)
    command.id = CommandID(id)
    command.cancelInFlight = cancelInFlight
    engine.submit(.command(command))
  }

  /// Runs a stream of actions as an effect: each element it emits is sent to the store.
  ///
  /// ```swift
  /// store.run("search \(query)", id: "search", cancelInFlight: true, stream: api.search(query))
  /// ```
  ///
  /// The stream is subscribed at once, on the calling thread (so that a stream on virtual time
  /// schedules its work before this returns), as an effect of the store's registry, like a
  /// command's task: it counts in ``effectsInFlight`` and ``finish()`` waits for it to complete;
  /// ``cancel(id:)`` with its `id`, a later effect with the same `id` and `cancelInFlight`, and
  /// the store's shutdown or release dispose of it, and drop what it sent that is still queued.
  ///
  /// - Parameters:
  ///   - name: Names the effect in diagnostics.
  ///   - id: An id to cancel it by with ``cancel(id:)``.
  ///   - cancelInFlight: Whether to cancel the effects in flight with the same `id` first, at
  ///     once — the "latest search wins" case.
  ///   - stream: The actions to send. A stream that fails ends the effect, and its error is
  ///     reported as the effect's (``StoreDiagnostic/effectFailed(effect:error:)``).
  public func run<S: ObservableType>(
    _ name: String = "stream",
    id: (any Hashable & Sendable)? = nil,
    cancelInFlight: Bool = false,
    stream: S
  ) where S.Element == Action {
    if cancelInFlight, let id { cancelNow(id: id) }
    start(
      stream.asObservable(),
      id: id,
      name: name,
      deliver: { action, store in store.send(action) }
    )
  }

  /// Cancels the commands started with `id`, in order with the inputs sent before: the tasks
  /// are cancelled, inputs they already queued are dropped, and waiting commands with that id
  /// never run.
  public func cancel(id: some Hashable & Sendable) {
    engine.submit(.cancel(CommandID(id)))
  }

  /// How many state deliveries wait on schedulers now, over all subscriptions: at most one per
  /// subscription with ``Delivery/scheduler(_:)``, any number with ``Delivery/everyState(_:)``.
  public var deliveryBacklog: Int { engine.deliveryCounters.pending.load(ordering: .relaxed) }

  /// The counters behind ``deliveryBacklog`` and ``coalescedDeliveries``, for the state streams
  /// an architecture delivers through a scheduler of its own (a reactor's, a feedback loop's).
  @inlinable
  package var deliveryCounters: DeliveryCounters { engine.deliveryCounters }

  /// How many states were replaced by a newer one before their delivery ran, since the store was
  /// made (``Delivery/scheduler(_:)`` delivers the latest state to a subscriber that is behind).
  public var coalescedDeliveries: Int {
    engine.deliveryCounters.coalesced.load(ordering: .relaxed)
  }

  /// The number of commands waiting for the state to allow them.
  public var parkedCommandCount: Int { engine.parkedCount }

  /// The number of effects running now: asynchronous commands in flight, and other work that
  /// may still send inputs (a reactor's mutation streams, a loop's feedback effects).
  public var effectsInFlight: Int { engine.inFlightCount }

  /// The number of live subscriptions.
  public var subscriptionCount: Int { engine.subscriptionCount }

  /// Whether the store has shut down (or its owner was released): it accepts and delivers
  /// nothing any more.
  public var isShutDown: Bool { engine.isClosed }

  /// Shuts the store down; nothing is delivered after it returns.
  ///
  /// It stops accepting inputs, cancels the commands in flight, processes what is queued, and
  /// ends every subscription.
  public func shutdown() async {
    await engine.shutdown(cancellingCommands: true)
  }

  /// Shuts the store down; nothing is delivered after it returns.
  ///
  /// It stops accepting inputs, cancels the commands in flight (or, if `cancellingCommands` is
  /// `false`, lets them finish, still accepting their inputs), processes what is queued, and
  /// ends every subscription.
  public func shutdown(cancellingCommands: Bool) async {
    await engine.shutdown(cancellingCommands: cancellingCommands)
  }

  /// Waits until every input sent so far has been processed.
  ///
  /// Commands in flight are not waited for; ``finish()`` waits for them too.
  public func settle() async {
    await engine.waitUntilIdle()
  }

  /// Waits until the store is at rest: every asynchronous command in flight has ended, every
  /// input sent so far (by anyone, commands included) has been processed, and none of that
  /// started new work.
  ///
  /// It is the awaitable drain tests use instead of polling, like TCA's `StoreTask.finish()`:
  ///
  /// ```swift
  /// store.send(.refresh)          // starts an asynchronous command
  /// await store.finish()          // the command ended and what it sent was reduced
  /// #expect(store.currentState.items.count == 3)
  /// ```
  ///
  /// Commands waiting for the state to allow them (``parkedCommandCount``) have not started and
  /// are not waited for. A command that never ends keeps `finish` waiting: cancel it first
  /// (``cancel(id:)``) or use ``shutdown()``. It returns at once when the
  /// store has shut down, and when called on the thread that is processing the store's inputs
  /// (from a reducer, subscriber or synchronous command), which cannot wait for itself.
  public func finish() async {
    await engine.finish()
  }

}

extension Store where Action == any CoreEvent, State: CoreState {
  /// Creates a ``Core``: a store whose state reacts to events.
  ///
  /// ```swift
  /// enum App {
  ///   static let sharedCore = Core(initialState: RPGState(), middlewares: [LevelUpAnnouncer()])
  /// }
  /// ```
  ///
  /// The seed's `Core(state:middlewares:)` compiles too (see `SeedSpellings.swift`).
  public convenience init(
    initialState: State,
    middlewares: [any Middleware<any CoreEvent, State>] = [],
    isolation: StoreIsolation = .callerThread,
    reentrancy: ReentrancyPolicy = .queue,
    scheduler: any Scheduler = ConcurrentDispatchQueueScheduler(),
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil,
    automaticallySkipsRepeats: Bool = true
  ) {
    self.init(
      initialState: initialState,
      middlewares: middlewares,
      isolation: isolation,
      reentrancy: reentrancy,
      scheduler: scheduler,
      diagnostics: diagnostics,
      automaticallySkipsRepeats: automaticallySkipsRepeats
    ) { state, event in state.react(to: event) }
  }
}

extension Store {
  /// Reports `diagnostic` through the store's diagnostics hook (IssueReporting by default).
  ///
  /// For architectures built on a store (reactors) whose own work fails outside a command.
  @usableFromInline
  package func report(_ diagnostic: StoreDiagnostic) {
    engine.diagnostics(diagnostic)
  }

  /// A store whose engine runs `program` for each input, on the processing thread: its step
  /// turns the input into the inputs to reduce now (a reactor's action into its synchronous
  /// mutations) and the work to start after them (see ``EngineProgram``).
  ///
  /// `reducer` reduces the inputs sent through ``reduceNowIfWindowOpen(_:)``.
  @usableFromInline
  package convenience init(
    initialState: State,
    middlewares: [any Middleware<Action, State>],
    isolation: StoreIsolation,
    reentrancy: ReentrancyPolicy,
    scheduler: any Scheduler,
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)?,
    reducer: @escaping @Sendable (inout State, Action) -> Void,
    program: EngineProgram<State, Action>
  ) {
    self.init(
      engine: StoreEngine(
        state: initialState,
        reducer: reducer,
        middlewares: middlewares,
        scheduler: scheduler,
        isolation: isolation,
        reentrancy: reentrancy,
        diagnostics: diagnostics,
        program: program
      ),
      owning: true
    )
  }
}

extension Store {
  /// Runs `body` with the reduce window open: an input sent on this thread meanwhile through
  /// ``reduceNowIfWindowOpen(_:)`` is reduced at once, with the store's reducer, instead of
  /// being queued.
  ///
  /// For an architecture that starts work while processing one input, on the processing thread:
  /// a reactor opens it while an action's mutation stream starts, so that each mutation the
  /// stream emits synchronously is reduced before the stream goes on (ReactorKit's order).
  @inlinable
  package func withReduceWindow(_ body: () -> Void) {
    engine.withReduceWindow(body)
  }

  /// Reduces `input` now, with the store's reducer, if the calling thread has the reduce window
  /// open (``withReduceWindow(_:)``); `false` if it has not, and the input must be sent.
  @inlinable
  package func reduceNowIfWindowOpen(_ input: Action) -> Bool {
    engine.reduceNowIfWindowOpen(input)
  }
}

extension Store {
  /// Whether the calling thread is processing the store's inputs now (inside a reducer,
  /// subscriber, middleware or synchronous command of this store, or an architecture's step).
  @inlinable
  package var isProcessingOnCurrentThread: Bool {
    engine.isProcessingOnCurrentThread
  }

  /// Sends an action from the thread processing the store's inputs (where
  /// ``isProcessingOnCurrentThread`` is `true`): what ``send(_:)`` does there — queue it behind
  /// the input in hand — without asking again which thread this is.
  @inlinable @inline(__always)
  package func sendWhileProcessing(_ action: Action) {
    engine.submitReentrant(action: SentInput(action), origin: origin)
  }
}

extension Store {
  /// Ends the store at once, as releasing its owner does: no more input, no more delivery, commands
  /// cancelled.
  ///
  /// For architectures built on a store that stop synchronously.
  package func close() {
    engine.close()
  }
}

extension Store {
  /// Cancels the effects with `id` at once, from any thread, instead of in order with the inputs
  /// queued (as ``cancel(id:)`` does): their stops are called, inputs they already queued are
  /// dropped, even those queued ahead, and waiting commands with that id never run.
  ///
  /// For architectures that start work while processing: a reactor's `mutate` cancels the
  /// effects its action replaces, on the processing thread, so the cancellation falls between
  /// that action and the next.
  @usableFromInline
  package func cancelNow(id: some Hashable & Sendable) {
    engine.cancel(id: CommandID(id))
  }
}

extension Store {
  /// Registers an effect that the store does not run itself (a reactor's stream of mutations, a
  /// feedback loop's effect) with the store's cancellation registry, and returns a handle whose
  /// inputs are tagged with it; `nil` if the store has shut down.
  ///
  /// The effect then follows the registry's semantics (see `EffectRegistry`): it counts in
  /// ``effectsInFlight`` and ``finish()`` waits for it; ``cancel(id:)`` with its `id`, the
  /// handle's ``cancelEffect()`` and shutdown call `stop`, and drop what it sent that is still
  /// queued or sent later. Call ``endEffect()`` on the handle exactly once when the effect ends,
  /// however it ends (a stream's `onDisposed`).
  @usableFromInline
  package func beginEffect(
    id: (any Hashable & Sendable)?,
    name: @autoclosure () -> String,
    stop: @escaping @Sendable () -> Void
  ) -> Store? {
    engine.beginEffect(key: id.map { CommandID($0) }, name: name, stop: stop).map {
      Store(engine: engine, origin: $0)
    }
  }

  /// Subscribes to `stream` now as an effect of the registry (``beginEffect(id:name:stop:)``):
  /// each element goes to `deliver` with the effect's handle, a failure is reported as the
  /// effect's, and the effect ends when the stream does.
  ///
  /// Inlinable, so that it is specialized for the architecture's types in client code:
  /// unspecialized, its subscription looks up generic metadata several times per stream (the
  /// ReactorKit form, a stream per action, paid ~30% of its instructions for it).
  @inlinable
  package func start<Element: Sendable, Failure: Error>(
    _ stream: Observable<Element, Failure>,
    id: (any Hashable & Sendable)?,
    name: @escaping @autoclosure @Sendable () -> String,
    deliver: @escaping @Sendable (Element, Store) -> Void
  ) {
    let slot = SingleAssignmentDisposable()
    guard let handle = beginEffect(id: id, name: name(), stop: { slot.dispose() }) else { return }
    let subscription = stream.subscribe(
      onNext: { deliver($0, handle) },
      onError: { error in handle.report(.effectFailed(effect: name(), error: error)) },
      onDisposed: { handle.endEffect() }
    )
    slot.setDisposable(subscription)
  }

  /// Ends the effect of a handle from ``beginEffect(id:name:stop:)``.
  @usableFromInline
  package func endEffect() {
    if let origin { engine.endEffect(origin) }
  }

  /// Cancels the effect of a handle from ``beginEffect(id:name:stop:)``, from any thread: its
  /// `stop` is called, and what it sent that is still queued is dropped.
  @usableFromInline
  package func cancelEffect() {
    if let origin { engine.cancelEffect(origin) }
  }
}

extension Store: StateContainer {
  /// What the store processes: its actions.
  public typealias Input = Action
}
