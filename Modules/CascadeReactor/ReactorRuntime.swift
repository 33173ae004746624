public import CascadeStore
public import CascadeStreams
import Dispatch
public import Synchronization

/// A reactor's machinery: the store that holds its state and processes its actions and
/// mutations in order, the action input, the state stream and the stub.
///
/// Declare one as a stored property of a reactor (``BaseReactor`` has one):
///
/// ```swift
/// let runtime = ReactorRuntime<Action, Mutation, State>()
/// ```
///
/// A reactor that declares none gets one kept for it by ``ReactorRuntimes``.
///
/// It starts on first use (the first action, or the first read of the state), calling the
/// reactor's `transform` hooks once. When it is released with its reactor, the reactor's work in
/// flight is cancelled and its subscriptions end.
public final class ReactorRuntime<Action: Sendable, Mutation: Sendable, State: Sendable>:
  @unchecked Sendable
{
  @usableFromInline typealias Core = ReactorCore<Action, Mutation, State>

  // Safety: `coreAddress` holds the core retained (released in `deinit`), stored once, when the
  // core is built and before anything can send to its store, with release ordering; `started`
  // is stored (release) after that. It is read after loading `started` (acquire), by the
  // starter after storing it, or by the store's processing of an input, which happens after the
  // core was connected (`ReactorStart`). An atomic rather than a stored `var`: reading it costs
  // a plain load, where a `var` of this class would pay a dynamic exclusivity check per action.
  /// The running machinery's address, retained by the runtime and handed out unretained: the
  /// hot path reaches it without retain and release.
  @usableFromInline let coreAddress = Atomic<UnsafeMutableRawPointer?>(nil)
  @usableFromInline let started = Atomic<Bool>(false)
  /// How far the start has got (see ``ReactorStart``).
  ///
  /// Never held while user code runs.
  @usableFromInline let startState = LockedValue(ReactorStart<Core, @Sendable () -> Void>())
  /// Where threads that need the core wait while another thread starts the reactor.
  let startWaiters = DispatchSemaphore(value: 0)
  @usableFromInline let stubbed = Atomic<Bool>(false)

  /// The core, once built.
  ///
  /// The one place the stored core is read without a check: callers have seen `started`
  /// (acquire), or are the starter after `built`, or are processing an input of the store, which
  /// only happens once the core was built (see the safety note above).
  @inlinable
  var builtCore: Unmanaged<Core> {
    // Safety: see `coreAddress`; a debug build checks it.
    let address = coreAddress.load(ordering: .relaxed)
    assert(address != nil, "the reactor's core was read before it was built")
    return Unmanaged.fromOpaque(address.unsafelyUnwrapped)
  }

  /// Creates a runtime; it starts on first use.
  public init() {}

  deinit {
    if let address = coreAddress.load(ordering: .acquiring) {
      Unmanaged<Core>.fromOpaque(address).release()
    }
  }

  /// Whether the reactor is stubbed.
  @inlinable
  var isStubbed: Bool {
    get { stubbed.load(ordering: .relaxed) }
    set { stubbed.store(newValue, ordering: .relaxed) }
  }

  /// The running machinery, started for `reactor` on first use.
  ///
  /// Traps when called from inside one of the reactor's own `transform` hooks while it is being
  /// built, where there is no core yet; the callers that can answer without one use
  /// ``coreIfBuilt(for:)``.
  @inlinable
  func core<R: Reactor>(for reactor: R) -> Core
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    guard let core = coreIfBuilt(for: reactor) else {
      preconditionFailure(
        "\(R.self) was used inside one of its own transform hooks while it starts; "
          + "only send, currentState and the state streams may be used there"
      )
    }
    return core
  }

  /// The running machinery, started for `reactor` on first use; `nil` when called from inside
  /// one of the reactor's `transform` hooks while the reactor is being built.
  @inlinable
  func coreIfBuilt<R: Reactor>(for reactor: R) -> Core?
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    if started.load(ordering: .acquiring) {
      return builtCore.takeUnretainedValue()
    }
    return startingCore(for: reactor)
  }

  /// Sends `action` to the reactor (records it in the stub while stubbed), starting the reactor
  /// on first use.
  @inlinable
  func send<R: Reactor>(_ action: Action, from reactor: R)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    if started.load(ordering: .acquiring) {
      builtCore._withUnsafeGuaranteedRef { core in
        if isStubbed {
          core.stub.record(action)
        } else {
          core.send(action, from: reactor)
        }
      }
      return
    }
    sendWhileStarting(action, from: reactor)
  }

  // The slow paths below are inlinable so that the core `start` builds is specialized for the
  // reactor's types in client code: built from unspecialized code, its closures would look up
  // generic metadata on every action (×7 instructions per action in W1).

  /// The slow path of ``coreIfBuilt(for:)``: the reactor has not started yet.
  @inlinable
  func startingCore<R: Reactor>(for reactor: R) -> Core?
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    let thread = currentThreadIdentity()
    while true {
      switch startState.withLock({ $0.access(by: thread) }) {
      case .use(let core): return core
      case .noCoreYet: return nil
      case .wait: waitForStart()
      case .start: return start(reactor)
      }
    }
  }

  /// The slow path of ``send(_:from:)``: the reactor has not started yet.
  @inlinable
  func sendWhileStarting<R: Reactor>(_ action: Action, from reactor: R)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    whenStarted(reactor) { [unowned self] core in
      if isStubbed {
        core.stub.record(action)
      } else {
        core.send(action, from: reactor)
      }
    }
  }

  /// Does `work` with the started core: now if the reactor has started (or the caller is
  /// starting it and has connected it), else once it has, in the order work was queued.
  @inlinable
  func whenStarted<R: Reactor>(_ reactor: R, _ work: @escaping @Sendable (Core) -> Void)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    if started.load(ordering: .acquiring) {
      work(builtCore.takeUnretainedValue())
      return
    }
    let queued: @Sendable () -> Void = { [unowned self] in
      work(builtCore.takeUnretainedValue())
    }
    switch startState.withLock({ $0.enqueue(queued, by: currentThreadIdentity()) }) {
    case .use(let core): work(core)
    case .queued: break
    case .start: _ = start(reactor)
    }
  }

  /// Waits until the thread starting the reactor wakes this one.
  @usableFromInline
  func waitForStart() {
    startWaiters.wait()
  }

  /// Wakes `count` threads waiting for the start.
  @usableFromInline
  func wakeStartWaiters(_ count: Int) {
    for _ in 0..<count { startWaiters.signal() }
  }

  /// Starts the reactor on the starter's thread.
  ///
  /// Builds the core, connects it, and does the work queued meanwhile (see ``ReactorStart``).
  /// No lock is held while the reactor's code runs.
  @inlinable
  func start<R: Reactor>(_ reactor: R) -> Core
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    let (core, connect) = Core.build(reactor)
    startState.withLock { start in
      coreAddress.store(Unmanaged.passRetained(core).toOpaque(), ordering: .releasing)
      start.built(core)
    }
    connect()
    while true {
      switch startState.withLock({ $0.next() }) {
      case .run(let queued):
        for work in queued { work() }
      case .started(let waking):
        started.store(true, ordering: .releasing)
        wakeStartWaiters(waking)
        return core
      }
    }
  }
}

/// The running machinery of one reactor.
@usableFromInline
final class ReactorCore<Action: Sendable, Mutation: Sendable, State: Sendable>: Sendable {
  @usableFromInline typealias Input = ReactorInput<Action, Mutation>

  @usableFromInline let store: Store<State, Input>
  @usableFromInline let stub: ReactorStub<Action, State>
  @usableFromInline let stateStream: Observable<State, Never>
  /// Whether `transform(state:)` reworks the states (then selections go through it).
  @usableFromInline let statesTransformed: Bool
  /// Where states are delivered, and whether that is on the processing thread itself.
  @usableFromInline let scheduler: any CascadeStreams.Scheduler
  @usableFromInline let deliveredDirectly: Bool
  /// Where actions go when `transform(action:)` reworks them; `nil` when it leaves them as they
  /// are, and actions go straight to the store.
  @usableFromInline let actionInput: PublishSubject<Action, Never>?
  /// Where mutations go when `transform(mutation:)` reworks them; `nil` when it leaves them.
  @usableFromInline let mutationInput: PublishSubject<Mutation, Never>?
  /// The subscriptions of the transformed streams.
  ///
  /// Streams of mutations are effects of the store's registry, cancelled with it.
  @usableFromInline let streams = CompositeDisposable()

  /// Builds the machinery of `reactor`, and returns it with the call that connects it: that call
  /// subscribes the streams of the reactor's `transform` hooks, so that what they emit flows in.
  ///
  /// A static factory rather than an initializer, so that the closures on the store's hot path are
  /// specialized for the reactor's types in client code.
  @inlinable
  static func build<R: Reactor>(_ reactor: R) -> (ReactorCore, connect: () -> Void)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    let weakReactor = WeakReactor(reactor)
    let store = Store<State, Input>(
      initialState: reactor.initialState,
      middlewares: reactor.middlewares.isEmpty
        ? [] : [ReactorMiddleware(MiddlewareStack(reactor.middlewares))],
      isolation: .callerThread,
      reentrancy: .queue,
      scheduler: reactor.scheduler,
      diagnostics: reactor.diagnostics,
      // Unused: the step passes the reducer, with the reactor it already holds.
      reducer: { _, _ in },
      step: { input, sender, reduceNow in
        // A sender processing its own action passes its reactor, which it keeps alive for the
        // call: no weak load. Otherwise (an input queued by another thread, or sent by a stream)
        // one weak load per input.
        if let sender {
          // Safety: only `ReactorCore.send(_:from:)` sends with a sender: always the reactor that
          // owns this core (an `R`, checked in debug builds), which it keeps alive for the call.
          // Handed over unretained, it costs no retain and release per input, where its weak
          // reference (a side table) makes each cost ~80 instructions: W1 Reactor 1085 → 907
          // instructions per action (Tooling/callgrind.sh).
          sender.with { process(input, by: unsafeDowncast($0, to: R.self), reduceNow: reduceNow) }
        } else if let reactor = weakReactor.reactor {
          process(input, by: reactor, reduceNow: reduceNow)
        }
      }
    )
    // Each hook is called once; where it is the default (which returns its input unchanged),
    // its result is not used and inputs go straight to the store.
    let actions = PublishSubject<Action, Never>()
    let (transformedActions, actionsUnchanged) = TransformProbe.run(for: reactor) {
      reactor.transform(action: actions.asObservable())
    }
    let mutations = PublishSubject<Mutation, Never>()
    let (transformedMutations, mutationsUnchanged) = TransformProbe.run(for: reactor) {
      reactor.transform(mutation: mutations.asObservable())
    }
    let actionInput = actionsUnchanged ? nil : actions
    let mutationInput = mutationsUnchanged ? nil : mutations
    let scheduler: any Scheduler = reactor.scheduler
    // The store's state stream already replays the current state to each subscriber; it is
    // shared only when `transform(state:)` reworks it, so that the transform runs once.
    let delivered =
      scheduler is ImmediateScheduler ? store.states : deliver(store.states, on: scheduler)
    let (transformedStates, statesUnchanged) = TransformProbe.run(for: reactor) {
      reactor.transform(state: delivered)
    }
    let stateStream = statesUnchanged ? delivered : transformedStates.share(replay: 1)
    let core = ReactorCore(
      store: store,
      stub: ReactorStub(initialState: { weakReactor.reactor?.initialState }),
      stateStream: stateStream,
      statesTransformed: !statesUnchanged,
      scheduler: scheduler,
      actionInput: actionInput,
      mutationInput: mutationInput
    )
    // Mutations first: the mutations of actions emitted on subscription (`startWith`) flow
    // through a connected `transform(mutation:)`, as in ReactorKit, whose chain is subscribed
    // from the state end.
    let connect = {
      if mutationInput != nil {
        core.streams.insert(
          transformedMutations.subscribe(onNext: { store.send(.mutation($0, cause: nil)) })
        )
      }
      if actionInput != nil {
        core.streams.insert(transformedActions.subscribe(onNext: { store.send(.action($0)) }))
      }
    }
    return (core, connect)
  }

  /// Processes one input of `reactor` on the store's processing thread: an action becomes its
  /// mutations (the synchronous ones reduced now), a mutation is reduced.
  @inlinable
  static func process<R: Reactor>(
    _ input: Input,
    by reactor: R,
    reduceNow: (Input, (inout State, Input) -> Void) -> Void
  ) where R.Action == Action, R.Mutation == Mutation, R.State == State {
    func reduce(_ input: Input) {
      reduceNow(input) { state, input in
        guard case .mutation(let mutation, _) = input else { return }
        reactor.reduce(into: &state, mutation: mutation)
      }
    }
    guard case .action(let action) = input else {
      reduce(input)
      return
    }
    // Processing only happens once the core has been built (`ReactorStart`).
    reactor.runtime.builtCore._withUnsafeGuaranteedRef { core in
      core.perform(reactor.mutate(action: action).asMutations(), for: action, reduceNow: reduce)
    }
  }

  @usableFromInline
  init(
    store: Store<State, Input>,
    stub: ReactorStub<Action, State>,
    stateStream: Observable<State, Never>,
    statesTransformed: Bool,
    scheduler: any CascadeStreams.Scheduler,
    actionInput: PublishSubject<Action, Never>?,
    mutationInput: PublishSubject<Mutation, Never>?
  ) {
    self.store = store
    self.stub = stub
    self.stateStream = stateStream
    self.statesTransformed = statesTransformed
    self.scheduler = scheduler
    deliveredDirectly = scheduler is ImmediateScheduler
    self.actionInput = actionInput
    self.mutationInput = mutationInput
  }

  deinit {
    streams.dispose()
  }

  @inlinable
  static func deliver<S: CascadeStreams.Scheduler>(
    _ states: Observable<State, Never>,
    on scheduler: S
  ) -> Observable<State, Never> {
    states.observe(on: scheduler)
  }

  /// A selection of the state, delivered like the state stream (after `transform(state:)`
  /// when the reactor reworks states).
  @inlinable
  func selectionStream<Selected: Sendable & Equatable>(
    _ select: @escaping @Sendable (State) -> Selected
  ) -> Observable<Selected, Never> {
    if statesTransformed {
      return stateStream.map(select).distinctUntilChanged().asObservable()
    }
    let selected = store.select(select)
    return deliveredDirectly ? selected : selected.observe(on: scheduler)
  }

  /// One element of a collection in the state, by index, delivered like the state stream:
  /// through the store's subscription index, or after `transform(state:)` when the reactor
  /// reworks states.
  @inlinable
  func elementStream<Elements: RandomAccessCollection & Sendable>(
    _ collection: any KeyPath<State, Elements> & Sendable,
    at index: Elements.Index
  ) -> Observable<Elements.Element, Never>
  where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    if statesTransformed {
      return stateStream.compactMap { Self.element(of: $0[keyPath: collection], at: index) }
        .distinctUntilChanged().asObservable()
    }
    let selected = store.select(collection, at: index)
    return deliveredDirectly ? selected : selected.observe(on: scheduler)
  }

  /// The element at `index`, if `elements` has one there.
  @inlinable
  static func element<Elements: RandomAccessCollection>(
    of elements: Elements,
    at index: Elements.Index
  ) -> Elements.Element? {
    index >= elements.startIndex && index < elements.endIndex ? elements[index] : nil
  }

  /// Sends an action into the reactor (through `transform(action:)` if it reworks actions).
  ///
  /// `reactor` is the reactor this core belongs to, which the caller keeps alive for the call.
  @inlinable
  func send(_ action: Action, from reactor: AnyObject) {
    if let actionInput {
      actionInput.onNext(action)
    } else {
      store.send(.action(action), sender: StepSender(reactor))
    }
  }

  /// Applies the synchronous mutations now and starts the asynchronous work.
  ///
  /// On the store's processing thread.
  @inlinable
  func perform(
    _ mutations: Mutations<Mutation>,
    for action: Action,
    reduceNow: (Input) -> Void
  ) {
    switch mutations.immediate {
    case .none: break
    case .one(let mutation):
      if let mutationInput {
        mutationInput.onNext(mutation)
      } else {
        reduceNow(.mutation(mutation, cause: action))
      }
    case .many(let list):
      for mutation in list {
        if let mutationInput {
          mutationInput.onNext(mutation)
        } else {
          reduceNow(.mutation(mutation, cause: action))
        }
      }
    }
    guard let later = mutations.later, let work = later.work else { return }
    let id = later.id
    let cancelInFlight = later.cancelInFlight
    let deliver: @Sendable (Mutation, Store<State, Input>) -> Void
    if let mutationInput {
      deliver = { mutation, _ in mutationInput.onNext(mutation) }
    } else {
      deliver = { mutation, store in store.send(.mutation(mutation, cause: action)) }
    }
    switch work {
    case .operation(let operation):
      // Cancel the previous work now, while processing this action, so that its results
      // already queued (even ahead of this action's command) are dropped.
      if cancelInFlight, let id = id { store.cancelWhileProcessing(id: id) }
      store.run("mutate(\(action))", id: id, cancelInFlight: cancelInFlight) {
        _,
        store in
        try await operation(MutationSender { deliver($0, store) })
      }
    case .stream(let stream):
      // Cancelling in flight happens now, while this action is processed, so that what the
      // previous streams queued is dropped (AT-26).
      if cancelInFlight, let id = id { store.cancelWhileProcessing(id: id) }
      start(stream, for: action, id: id, deliver: deliver)
    }
  }

  /// Subscribes to a stream of mutations now, so that streams on virtual time schedule at once.
  ///
  /// The stream is an effect of the store's registry: it sends through a handle of its own, is
  /// disposed by `cancel(id:)` when it has an id, by the next stream with the same id when
  /// `cancelInFlight`, and when the reactor shuts down or is released; what it queued is then
  /// dropped.
  ///
  /// Inlinable, so that it is specialized for the reactor's types in client code: unspecialized,
  /// its subscription looks up generic metadata several times per stream (the ReactorKit form,
  /// a stream per action, paid ~30% of its instructions for it).
  @inlinable
  func start(
    _ stream: Observable<Mutation, any Error>,
    for action: Action,
    id: (any Hashable & Sendable)?,
    deliver: @escaping @Sendable (Mutation, Store<State, Input>) -> Void
  ) {
    let slot = SingleAssignmentDisposable()
    guard
      let handle = store.beginEffect(id: id, name: "mutate(\(action))", stop: { slot.dispose() })
    else {
      return
    }
    let subscription = stream.subscribe(
      onNext: { deliver($0, handle) },
      onError: { error in
        handle.report(.commandFailed(command: "mutate(\(action))", error: error))
      },
      onDisposed: { handle.endEffect() }
    )
    slot.setDisposable(subscription)
  }

  /// Ends the machinery: the store shuts down (cancelling its tasks), and every stream —
  /// the hooks', and the mutation streams in flight — is disposed.
  func shutdown() async {
    streams.dispose()
    await store.shutdown()
  }

  /// Cancels the work started under `id`: its tasks and its streams.
  @usableFromInline
  func cancel(id: some Hashable & Sendable) {
    store.cancel(id: id)
  }
}

/// Tells a reactor's start whether a `transform` hook it calls is the default one, which returns
/// its input unchanged (so that the reactor can skip the stream and send straight to its store).
///
/// The defaults (of ``Reactor`` and ``BaseReactor``) note themselves in the probe bound for the
/// call. Looking at the returned stream instead cannot tell: element-wise operators such as `map`
/// and `do` hand their subscriber's lifetime straight to their source.
@usableFromInline
final class TransformProbe: Sendable {
  @TaskLocal static var current: TransformProbe?

  private let reactor: ObjectIdentifier
  private let noted = Atomic<Bool>(false)

  private init(reactor: ObjectIdentifier) {
    self.reactor = reactor
  }

  /// Calls `transform`; returns its result and whether it was `reactor`'s default hook.
  @usableFromInline
  static func run<T>(for reactor: AnyObject, _ transform: () -> T) -> (T, isDefault: Bool) {
    let probe = TransformProbe(reactor: ObjectIdentifier(reactor))
    let result = $current.withValue(probe) { transform() }
    return (result, probe.noted.load(ordering: .relaxed))
  }

  /// Called by the default hooks of `reactor`.
  @usableFromInline
  static func noteDefault(of reactor: AnyObject) {
    guard let probe = current, probe.reactor == ObjectIdentifier(reactor) else { return }
    probe.noted.store(true, ordering: .relaxed)
  }
}

/// A weak reference to a reactor, for the store its core runs (which the reactor owns).
@usableFromInline
final class WeakReactor<R: Reactor>: Sendable {
  @usableFromInline weak let reactor: R?

  @inlinable
  init(_ reactor: R) {
    self.reactor = reactor
  }
}
