public import CascadeMiddleware
public import CascadeStore
public import CascadeStreams
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
/// It starts on first use (the first action, or the first read of the state), calling the
/// reactor's `transform` hooks once. When it is released with its reactor, the reactor's work in
/// flight is cancelled and its subscriptions end.
public final class ReactorRuntime<Action: Sendable, Mutation: Sendable, State: Sendable>:
  @unchecked Sendable
{
  // Safety: `unmanagedCore` is written once, under `startLock`, before `started` is stored with
  // release ordering; it is read only after loading `started` with acquire ordering (or under
  // the lock), or by the store's processing, which starts after it.
  /// The running machinery, retained by the runtime (released in `deinit`) and handed out
  /// unretained: the hot path reaches it without retain and release.
  @usableFromInline @exclusivity(unchecked) nonisolated(unsafe)
    var unmanagedCore: Unmanaged<ReactorCore<Action, Mutation, State>>?
  @usableFromInline let started = Atomic<Bool>(false)
  @usableFromInline let startLock = LockedValue(())
  @usableFromInline let stubbed = Atomic<Bool>(false)

  /// Creates a runtime; it starts on first use.
  public init() {}

  deinit {
    unmanagedCore?.release()
  }

  /// Whether the reactor is stubbed.
  @inlinable
  var isStubbed: Bool {
    get { stubbed.load(ordering: .relaxed) }
    set { stubbed.store(newValue, ordering: .relaxed) }
  }

  /// The running machinery, started for `reactor` on first use.
  @inlinable
  func core<R: Reactor>(for reactor: R) -> ReactorCore<Action, Mutation, State>
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    unmanagedCore(for: reactor).takeUnretainedValue()
  }

  /// The running machinery, started for `reactor` on first use, unretained (the runtime holds
  /// it): use it with `_withUnsafeGuaranteedRef` while the runtime is alive.
  @inlinable
  func unmanagedCore<R: Reactor>(
    for reactor: R
  ) -> Unmanaged<ReactorCore<Action, Mutation, State>>
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    if started.load(ordering: .acquiring) { return unmanagedCore.unsafelyUnwrapped }
    return startLock.withLock { _ in
      if let unmanagedCore { return unmanagedCore }
      let started = Unmanaged.passRetained(ReactorCore.start(reactor))
      unmanagedCore = started
      self.started.store(true, ordering: .releasing)
      return started
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
  /// The subscriptions of the transformed streams and of stream mutations in flight.
  @usableFromInline let streams = CompositeDisposable()
  /// The subscriptions of stream mutations started with an id, by id.
  @usableFromInline let keyedStreams = LockedValue<[AnyHashableSendable: CompositeDisposable]>([:])

  /// Starts the machinery of `reactor`.
  ///
  /// A static factory rather than an initializer, so that the closures on the store's hot path are
  /// specialized for the reactor's types in client code.
  @inlinable
  static func start<R: Reactor>(_ reactor: R) -> ReactorCore
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
      reducer: { state, input in
        guard case .mutation(let mutation, _) = input else { return }
        // The reactor `expand` holds for the input being processed: no second weak load.
        if let reactor = weakReactor.current {
          // No retain: `expand` holds the reactor for as long as `current` is set.
          reactor._withUnsafeGuaranteedRef { $0.reduce(into: &state, mutation: mutation) }
        } else if let reactor = weakReactor.reactor {
          reactor.reduce(into: &state, mutation: mutation)
        }
      },
      expand: { input, context, reduceNow in
        // The reactor stays alive while its input is processed, and the reducer reuses it
        // through `current`. A sender processing its own action passes the reactor as the
        // context (it holds it for the call); otherwise one weak load per input.
        if let context {
          let reactor = Unmanaged<R>.fromOpaque(context)
          weakReactor.current = reactor
          defer { weakReactor.current = nil }
          reactor._withUnsafeGuaranteedRef { reactor in
            process(input, by: reactor, reduceNow: reduceNow)
          }
        } else {
          guard let reactor = weakReactor.reactor else { return }
          weakReactor.current = Unmanaged.passUnretained(reactor)
          defer { weakReactor.current = nil }
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
    if actionInput != nil {
      core.streams.insert(transformedActions.subscribe(onNext: { store.send(.action($0)) }))
    }
    if mutationInput != nil {
      core.streams.insert(
        transformedMutations.subscribe(onNext: { store.send(.mutation($0, cause: nil)) })
      )
    }
    return core
  }

  /// Processes one input of `reactor` on the store's processing thread: an action becomes its
  /// mutations (the synchronous ones reduced now), a mutation is reduced.
  @inlinable
  static func process<R: Reactor>(
    _ input: Input,
    by reactor: R,
    reduceNow: (Input) -> Void
  ) where R.Action == Action, R.Mutation == Mutation, R.State == State {
    guard case .action(let action) = input else {
      reduceNow(input)
      return
    }
    // Processing only happens once the core has started.
    reactor.runtime.unmanagedCore.unsafelyUnwrapped._withUnsafeGuaranteedRef { core in
      core.perform(reactor.mutate(action: action), for: action, reduceNow: reduceNow)
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
    let keyed = keyedStreams.withLock { keyed in
      defer { keyed = [:] }
      return Array(keyed.values)
    }
    for group in keyed { group.dispose() }
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
      store.send(
        .action(action),
        context: UnsafeRawPointer(Unmanaged.passUnretained(reactor).toOpaque())
      )
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
      // A stream with an id sends through a handle of its own origin, so that cancelling the id
      // also drops what it already queued (AT-26); cancelling in flight happens now, while this
      // action is processed.
      var target = store
      var end: (@Sendable () -> Void)?
      if let id = id {
        if cancelInFlight { store.cancelWhileProcessing(id: id) }
        let handle = store.beginOrigin(id: id)
        target = handle
        end = { handle.endOrigin() }
      }
      start(
        stream,
        for: action,
        id: id,
        cancelInFlight: cancelInFlight,
        onEnd: end
      ) { [target] mutation in deliver(mutation, target) }
    }
  }

  /// Subscribes to a stream of mutations now, so that streams on virtual time schedule at once.
  ///
  /// The subscription is disposed with the reactor, by `cancel(id:)` when it has an id, or by the
  /// next stream with the same id when `cancelInFlight`. A subscription that ends leaves its
  /// group, so finished streams are not kept until the reactor goes.
  @usableFromInline
  func start(
    _ stream: Observable<Mutation, any Error>,
    for action: Action,
    id: (any Hashable & Sendable)?,
    cancelInFlight: Bool,
    onEnd: (@Sendable () -> Void)? = nil,
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
    guard let key = group.insert(slot) else {
      onEnd?()
      return
    }
    // The stream is work `finish()` waits for, until it ends one way or another.
    store.beginWork()
    let subscription = stream.subscribe(
      onNext: deliver,
      onError: { error in
        store.report(.commandFailed(command: "mutate(\(action))", error: error))
      },
      onDisposed: { [weak group] in
        group?.detach(for: key)
        onEnd?()
        store.endWork()
      }
    )
    slot.setDisposable(subscription)
  }

  /// Cancels the work started under `id`.
  @usableFromInline
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

@usableFromInline
final class WeakReactor<R: Reactor>: @unchecked Sendable {
  // Safety: `reactor` is only assigned in `init`; loading a weak reference is atomic, and
  // reactors are Sendable. `current` is only touched by the thread processing the reactor's
  // store, while `expand` holds a strong reference to the reactor it points to.
  @usableFromInline @exclusivity(unchecked) weak var reactor: R?
  /// Behind a pointer: no dynamic exclusivity check on the hot path.
  @usableFromInline let currentSlot = UnsafeMutablePointer<Unmanaged<R>?>.allocate(capacity: 1)

  @inlinable var current: Unmanaged<R>? {
    get { currentSlot.pointee }
    set { currentSlot.pointee = newValue }
  }

  deinit {
    currentSlot.deallocate()
  }

  @inlinable
  init(_ reactor: R) {
    self.reactor = reactor
    currentSlot.initialize(to: nil)
  }
}

/// A `Hashable & Sendable` value, type-erased.
@usableFromInline
struct AnyHashableSendable: Hashable, @unchecked Sendable {
  // Safety: only built from `Sendable` values, which AnyHashable wraps unchanged.
  let base: AnyHashable

  init(_ value: some Hashable & Sendable) {
    base = AnyHashable(value)
  }
}
