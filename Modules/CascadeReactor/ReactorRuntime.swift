import CascadeMiddleware
import CascadeStore
import CascadeStreams
import Synchronization

/// A reactor's machinery: the store that holds its state and processes its actions and
/// mutations in order, the action input, the state stream and the stub.
///
/// Declare one as a stored property of a reactor (``BaseReactor`` has one):
///
/// ```swift
/// let runtime = ReactorRuntime<Action, Mutation, State>()
/// ```
///
/// It starts on first use (the first action, or the first read of the state), calling the
/// reactor's `transform` hooks once. When it is released with its reactor, the reactor's work in
/// flight is cancelled and its subscriptions end.
public final class ReactorRuntime<Action: Sendable, Mutation: Sendable, State: Sendable>:
  @unchecked Sendable
{
  // Safety: `core` is written once, under `startLock`, before `started` is stored with release
  // ordering; it is read only after loading `started` with acquire ordering (or under the lock).
  nonisolated(unsafe) private var core: ReactorCore<Action, Mutation, State>?
  private let started = Atomic<Bool>(false)
  private let startLock = LockedValue(())
  let stubbed = Atomic<Bool>(false)

  /// Creates a runtime; it starts on first use.
  public init() {}

  /// Whether the reactor is stubbed.
  var isStubbed: Bool {
    get { stubbed.load(ordering: .relaxed) }
    set { stubbed.store(newValue, ordering: .relaxed) }
  }

  /// The running machinery, started for `reactor` on first use.
  func core<R: Reactor>(for reactor: R) -> ReactorCore<Action, Mutation, State>
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    if started.load(ordering: .acquiring) { return core.unsafelyUnwrapped }
    return startLock.withLock { _ in
      if let core { return core }
      let started = ReactorCore(reactor: reactor)
      core = started
      self.started.store(true, ordering: .releasing)
      return started
    }
  }
}

/// The running machinery of one reactor.
final class ReactorCore<Action: Sendable, Mutation: Sendable, State: Sendable>: Sendable {
  typealias Input = ReactorInput<Action, Mutation>

  let store: Store<State, Input>
  let stub: ReactorStub<Action, State>
  let stateStream: Observable<State, Never>
  /// Where actions go when `transform(action:)` reworks them; `nil` when it leaves them as they
  /// are, and actions go straight to the store.
  let actionInput: PublishSubject<Action, Never>?
  /// Where mutations go when `transform(mutation:)` reworks them; `nil` when it leaves them.
  let mutationInput: PublishSubject<Mutation, Never>?
  /// The subscriptions of the transformed streams and of stream mutations in flight.
  let streams = CompositeDisposable()
  /// The subscriptions of stream mutations started with an id, by id.
  let keyedStreams = LockedValue<[AnyHashableSendable: CompositeDisposable]>([:])

  init<R: Reactor>(reactor: R)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    let weakReactor = WeakReactor(reactor)
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
    // Weak: the store's closures must not keep the core (which owns the store) alive.
    let coreBox = LockedValue(WeakCore<Action, Mutation, State>())
    store = Store(
      initialState: reactor.initialState,
      middlewares: reactor.middlewares.isEmpty
        ? [] : [ReactorMiddleware(MiddlewareStack(reactor.middlewares))],
      isolation: .callerThread,
      reentrancy: .queue,
      scheduler: reactor.scheduler,
      diagnostics: nil,
      reducer: { state, input in
        guard case .mutation(let mutation, _) = input, let reactor = weakReactor.reactor else {
          return
        }
        reactor.reduce(into: &state, mutation: mutation)
      },
      expand: { input, reduceNow in
        guard case .action(let action) = input else {
          reduceNow(input)
          return
        }
        guard let reactor = weakReactor.reactor, let core = coreBox.withLock({ $0.core }) else {
          return
        }
        core.perform(reactor.mutate(action: action), for: action, reduceNow: reduceNow)
      }
    )
    stub = ReactorStub(initialState: reactor.initialState)
    self.actionInput = actionInput
    self.mutationInput = mutationInput
    let store = store
    let scheduler: any Scheduler = reactor.scheduler
    let delivered = Self.deliver(store.states, on: scheduler)
    stateStream = reactor.transform(state: delivered).share(replay: 1)
    coreBox.withLock { $0.core = self }
    if actionInput != nil {
      streams.insert(transformedActions.subscribe(onNext: { store.send(.action($0)) }))
    }
    if mutationInput != nil {
      streams.insert(
        transformedMutations.subscribe(onNext: { store.send(.mutation($0, cause: nil)) })
      )
    }
  }

  deinit {
    streams.dispose()
    let keyed = keyedStreams.withLock { keyed in
      defer { keyed = [:] }
      return Array(keyed.values)
    }
    for group in keyed { group.dispose() }
  }

  private static func deliver<S: CascadeStreams.Scheduler>(
    _ states: Observable<State, Never>,
    on scheduler: S
  ) -> Observable<State, Never> {
    states.observe(on: scheduler)
  }

  /// Sends an action into the reactor (through `transform(action:)` if it reworks actions).
  func send(_ action: Action) {
    if let actionInput {
      actionInput.onNext(action)
    } else {
      store.send(.action(action))
    }
  }

  /// Applies the synchronous mutations now and starts the asynchronous work.
  ///
  /// On the store's processing thread.
  func perform(
    _ mutations: Mutations<Mutation>,
    for action: Action,
    reduceNow: (Input) -> Void
  ) {
    if let mutationInput {
      for mutation in mutations.sync { mutationInput.onNext(mutation) }
    } else {
      for mutation in mutations.sync { reduceNow(.mutation(mutation, cause: action)) }
    }
    guard let work = mutations.async else { return }
    let deliver: @Sendable (Mutation, Store<State, Input>) -> Void
    if let mutationInput {
      deliver = { mutation, _ in mutationInput.onNext(mutation) }
    } else {
      deliver = { mutation, store in store.send(.mutation(mutation, cause: action)) }
    }
    switch work {
    case .operation(let operation):
      store.run("mutate(\(action))", id: mutations.id, cancelInFlight: mutations.cancelInFlight) {
        _,
        store in
        try await operation(MutationSender { deliver($0, store) })
      }
    case .stream(let stream):
      start(stream, for: action, id: mutations.id, cancelInFlight: mutations.cancelInFlight) {
        [store] mutation in deliver(mutation, store)
      }
    }
  }

  /// Subscribes to a stream of mutations now, so that streams on virtual time schedule at once.
  ///
  /// The subscription is disposed with the reactor, by `cancel(id:)` when it has an id, or by the
  /// next stream with the same id when `cancelInFlight`. A subscription that ends leaves its
  /// group, so finished streams are not kept until the reactor goes.
  private func start(
    _ stream: Observable<Mutation, any Error>,
    for action: Action,
    id: (any Hashable & Sendable)?,
    cancelInFlight: Bool,
    deliver: @escaping @Sendable (Mutation) -> Void
  ) {
    let store = store
    let group: CompositeDisposable
    if let id {
      let key = AnyHashableSendable(id)
      let (previous, keyed) = keyedStreams.withLock { keyed in
        let previous = cancelInFlight ? keyed.removeValue(forKey: key) : nil
        if let existing = keyed[key] { return (previous, existing) }
        let created = CompositeDisposable()
        keyed[key] = created
        return (previous, created)
      }
      previous?.dispose()
      group = keyed
    } else {
      group = streams
    }
    let slot = SingleAssignmentDisposable()
    guard let key = group.insert(slot) else { return }
    let subscription = stream.subscribe(
      onNext: deliver,
      onError: { error in
        store.report(.commandFailed(command: "mutate(\(action))", error: error))
      },
      onDisposed: { [weak group] in group?.detach(for: key) }
    )
    slot.setDisposable(subscription)
  }

  /// Cancels the work started under `id`.
  func cancel(id: some Hashable & Sendable) {
    store.cancel(id: id)
    let group = keyedStreams.withLock { $0.removeValue(forKey: AnyHashableSendable(id)) }
    group?.dispose()
  }
}

/// Tells a reactor's start whether a `transform` hook it calls is the default one, which returns
/// its input unchanged (so that the reactor can skip the stream and send straight to its store).
///
/// The defaults (of ``Reactor`` and ``BaseReactor``) note themselves in the probe bound for the
/// call. Looking at the returned stream instead cannot tell: element-wise operators such as `map`
/// and `do` hand their subscriber's lifetime straight to their source.
final class TransformProbe: Sendable {
  @TaskLocal static var current: TransformProbe?

  private let reactor: ObjectIdentifier
  private let noted = Atomic<Bool>(false)

  private init(reactor: ObjectIdentifier) {
    self.reactor = reactor
  }

  /// Calls `transform`; returns its result and whether it was `reactor`'s default hook.
  static func run<T>(for reactor: AnyObject, _ transform: () -> T) -> (T, isDefault: Bool) {
    let probe = TransformProbe(reactor: ObjectIdentifier(reactor))
    let result = $current.withValue(probe) { transform() }
    return (result, probe.noted.load(ordering: .relaxed))
  }

  /// Called by the default hooks of `reactor`.
  static func noteDefault(of reactor: AnyObject) {
    guard let probe = current, probe.reactor == ObjectIdentifier(reactor) else { return }
    probe.noted.store(true, ordering: .relaxed)
  }
}

/// A weak reference to a reactor's core, for the closures its store holds.
private struct WeakCore<Action: Sendable, Mutation: Sendable, State: Sendable>: Sendable {
  weak var core: ReactorCore<Action, Mutation, State>?
}

/// A weak reference to a reactor, for the closures its store holds.
private final class WeakReactor<R: Reactor>: @unchecked Sendable {
  // Safety: `reactor` is only assigned in `init`; loading a weak reference is atomic, and
  // reactors are Sendable.
  weak var reactor: R?

  init(_ reactor: R) {
    self.reactor = reactor
  }
}

/// A `Hashable & Sendable` value, type-erased.
struct AnyHashableSendable: Hashable, @unchecked Sendable {
  // Safety: only built from `Sendable` values, which AnyHashable wraps unchanged.
  let base: AnyHashable

  init(_ value: some Hashable & Sendable) {
    base = AnyHashable(value)
  }
}
