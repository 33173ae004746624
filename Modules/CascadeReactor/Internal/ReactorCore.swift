public import CascadeStore
public import CascadeStreams

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
      // otherwise the step passes the reducer, with the reactor it already holds.
      reducer: { state, input in
        guard case .mutation(let mutation, _) = input, let reactor = weakReactor.reactor else {
          return
        }
        reactor.reduce(into: &state, mutation: mutation)
      },
      step: { input, sender, isReplay, reduceNow in
        // A sender processing its own action passes its reactor, which it keeps alive for the
        // call: no weak load. Otherwise (an input queued by another thread, or sent by a stream)
        // one weak load per input.
        if let sender {
          // Safety: only `ReactorCore.send(_:from:)` sends with a sender: always the reactor that
          // owns this core (an `R`, checked in debug builds), which it keeps alive for the call.
          // Handed over unretained, it costs no retain and release per input, where its weak
          // reference (a side table) makes each cost ~80 instructions: W1 Reactor 1085 → 907
          // instructions per action (Tooling/callgrind.sh).
          // The context is the reactor's core, which sent it (`ReactorCore.send(_:from:)`) and
          // is kept alive by its runtime for the call: it saves looking the core up again (for a
          // reactor without a `runtime` property, a second lookup in the shared table).
          sender.withContext { reactor, core in
            process(
              input,
              by: unsafeDowncast(reactor, to: R.self),
              core: core.map { unsafeDowncast($0, to: ReactorCore.self) },
              isReplay: isReplay,
              reduceNow: reduceNow
            )
          }
        } else if let reactor = weakReactor.reactor {
          process(input, by: reactor, core: nil, isReplay: isReplay, reduceNow: reduceNow)
        } else {
          // The reactor is gone but its machinery lives on: a runtime in the shared table, until
          // the table is swept (`ReactorRuntimes`). Its work ends at this first input after the
          // release: its effects are cancelled and its state streams end.
          closer.closeStore()
        }
      }
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

  /// Processes one input of `reactor` on the store's processing thread.
  ///
  /// An action becomes its mutations (the synchronous ones reduced now), a mutation is reduced.
  /// A replayed action starts nothing: its mutations are replayed after it. `core` is the
  /// reactor's core when its sender passed it; `nil` to look it up.
  @inlinable
  static func process<R: Reactor>(
    _ input: Input,
    by reactor: R,
    core: ReactorCore?,
    isReplay: Bool,
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
    if isReplay { return }
    if let core {
      core.perform(reactor.mutate(action: action).asMutations(), for: action, reduceNow: reduce)
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
    deliversEveryState: Bool,
    actionInput: PublishSubject<Action, Never>?,
    mutationInput: PublishSubject<Mutation, Never>?
  ) {
    self.store = store
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
