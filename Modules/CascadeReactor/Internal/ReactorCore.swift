public import CascadeStore
public import CascadeStreams

/// The running machinery of one reactor.
@usableFromInline
final class ReactorCore<Action: Sendable, Mutation: Sendable, State: Sendable>: Sendable {
  @usableFromInline typealias Input = ReactorInput<Action, Mutation>

  @usableFromInline let store: Store<State, Input>
  /// The store's engine, which `send` calls directly: kept here, a `let` of the core, so that the
  /// call borrows it (reached through `store`, it is retained and released around the call,
  /// through its side table: W1 Reactor +177 instructions per action).
  @usableFromInline let engine: StoreEngine<State, Input>
  @usableFromInline let stub: ReactorStub<Action, State>
  @usableFromInline let stateStream: Observable<State, Never>
  /// Whether `transform(state:)` reworks the states (then selections go through it).
  @usableFromInline let statesTransformed: Bool
  /// Where states are delivered, and whether that is on the processing thread itself.
  @usableFromInline let scheduler: any CascadeStreams.Scheduler
  @usableFromInline let deliveredDirectly: Bool
  /// Whether states go through ``scheduler`` one by one, not the latest (`deliversEveryState`).
  @usableFromInline let deliversEveryState: Bool
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
    let closer = StoreCloser()
    // Read once: the default is a new main scheduler per reactor (`Reactor.scheduler`).
    let scheduler: any Scheduler = reactor.scheduler
    let store = Store<State, Input>(
      initialState: reactor.initialState,
      middlewares: reactor.middlewares.isEmpty
        ? [] : [ReactorMiddleware(MiddlewareStack(reactor.middlewares))],
      isolation: .callerThread,
      reentrancy: .queue,
      scheduler: scheduler,
      diagnostics: reactor.diagnostics,
      // Only for the mutations a stream emits while it starts (`Store.reduceNowIfWindowOpen`):
      // otherwise the engine reduces with the program's `reduce`, with the reactor it holds.
      reducer: { state, input in
        guard case .mutation(let mutation, _) = input, let reactor = weakReactor.reactor else {
          return
        }
        reactor.reduce(into: &state, mutation: mutation)
      },
      program: program(of: weakReactor, closer: closer)
    )
    closer.connect(store)
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
    // The store's state stream already replays the current state to each subscriber; it is
    // shared only when `transform(state:)` reworks it, so that the transform runs once.
    let delivered =
      scheduler is ImmediateScheduler
      ? store.states
      : deliver(
        store.states,
        on: scheduler,
        everyState: reactor.deliversEveryState,
        counting: store
      )
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
      deliversEveryState: reactor.deliversEveryState,
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

  @usableFromInline
  init(
    store: Store<State, Input>,
    stub: ReactorStub<Action, State>,
    stateStream: Observable<State, Never>,
    statesTransformed: Bool,
    scheduler: any CascadeStreams.Scheduler,
    deliversEveryState: Bool,
    actionInput: PublishSubject<Action, Never>?,
    mutationInput: PublishSubject<Mutation, Never>?
  ) {
    self.store = store
    engine = store.engine
    self.stub = stub
    self.stateStream = stateStream
    self.statesTransformed = statesTransformed
    self.scheduler = scheduler
    deliveredDirectly = scheduler is ImmediateScheduler
    self.deliversEveryState = deliversEveryState
    self.actionInput = actionInput
    self.mutationInput = mutationInput
  }

  deinit {
    streams.dispose()
  }

  /// `values` delivered on `scheduler`: the latest (or, with `everyState`, every one), counted in
  /// `store`'s delivery counters.
  @inlinable
  static func deliver<Value: Sendable, S: CascadeStreams.Scheduler>(
    _ values: Observable<Value, Never>,
    on scheduler: S,
    everyState: Bool,
    counting store: Store<State, Input>
  ) -> Observable<Value, Never> {
    // The first value, the state on subscription, is never coalesced away: a subscriber always
    // sees the state it subscribed to (ReactorKit's `state.skip(1)` idiom depends on it).
    values.observe(
      on: scheduler,
      coalescing: !everyState,
      counters: store.deliveryCounters,
      keepsFirst: true
    )
  }
}
