public import CascadeStore
public import CascadeStreams
public import Synchronization

// A reactor's input, from `send` to its store's engine and back: the whole of the reactor's part
// of the path is in this file.
//
// `Reactor.send` → `ReactorRuntime.send` → `ReactorCore.send` → the store's engine
// (`StoreEngine.send`), which runs the reactor's program (`EngineProgram`) on the processing
// thread:
// 1. `step`: an action becomes the reductions of its `mutate(action:)` — its synchronous
//    mutations, and its asynchronous work (`Mutations.Later`) to start after them; a mutation is
//    its own reduction;
// 2. `reduce`: the engine reduces each mutation in place with the reactor's `reduce(into:)`;
// 3. `start`: the engine hands the asynchronous work back, which starts as an effect of the store.

extension Reactor {
  /// Sends an action: its synchronous mutations are applied before this returns (unless another
  /// thread is processing the reactor's inputs, which then applies them).
  @inlinable @inline(__always)
  public func send(_ action: Action) {
    runtime.send(action, from: self)
  }
}

extension ReactorRuntime {
  /// The core, once built.
  ///
  /// The one place the stored core is read without a check: callers have seen `started`
  /// (acquire), or are the starter after `built`, or are processing an input of the store, which
  /// only happens once the core was built (see the safety note of `coreAddress`).
  @inlinable
  var builtCore: Unmanaged<Core> {
    // Safety: see `coreAddress`. Checked in every build: the check is a compare and a branch
    // (W1 Reactor 902 instructions per action with it, 898 with `unsafelyUnwrapped`; callgrind),
    // too little to turn a broken invariant into undefined behaviour.
    guard let address = coreAddress.load(ordering: .relaxed) else {
      preconditionFailure("the reactor's core was read before it was built")
    }
    return Unmanaged.fromOpaque(address)
  }

  /// Whether the reactor is stubbed.
  @inlinable
  var isStubbed: Bool {
    get { stubbed.load(ordering: .relaxed) }
    set { stubbed.store(newValue, ordering: .relaxed) }
  }

  /// Sends `action` to the reactor (records it in the stub while stubbed), starting the reactor
  /// on first use.
  ///
  /// Always inlined, as `Reactor.send` is, into the caller: left to the optimizer, one of the two
  /// was outlined once the core sent to the engine directly, a call that cost W1 Reactor 18
  /// instructions per action (940 against 921; `Tooling/callgrind.sh`).
  @inlinable @inline(__always)
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
    } else {
      sendWhileStarting(action, from: reactor)
    }
    // After the reactor's own handling, as ReactorKit's action subject serves the reactor (its
    // first observer) first.
    if actionObservers.observed.load(ordering: .acquiring) { actionObservers.emit(action) }
  }
}

extension ReactorCore {
  /// Sends an action into the reactor (through `transform(action:)` if it reworks actions).
  ///
  /// `reactor` is the reactor this core belongs to, which the caller keeps alive for the call:
  /// the engine hands it to the program's steps as their sender, with this core as its context.
  ///
  /// Always inlined: for an existential action type, the reactor keeps the caller's box (see
  /// `Store.send(_:)`).
  @inlinable @inline(__always)
  func send(_ action: Action, from reactor: AnyObject) {
    if let actionInput {
      actionInput.onNext(action)
    } else {
      engine.send(.action(action), sender: StepSender(reactor, context: self))
    }
  }

  /// The program of `reactor` on its store's engine (see the top of this file).
  ///
  /// A sender processing its own action passes its reactor, which it keeps alive for the call:
  /// no weak load. Otherwise (an input queued by another thread, or sent by a stream) the step
  /// loads the reactor from its weak reference once, and the reductions keep it alive while the
  /// engine reduces and starts them.
  @inlinable
  static func program<R: Reactor>(
    of reactor: WeakReactor<R>,
    closer: StoreCloser
  ) -> EngineProgram<State, Input>
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    EngineProgram(
      step: { input, sender, isReplay in
        if let sender {
          // Safety: only `ReactorCore.send(_:from:)` sends with a sender: always the reactor that
          // owns this core (an `R`), with this core as the context, both kept alive by the
          // sending call. Handed over unretained, they cost no retain and release per input,
          // where the reactor's weak reference (a side table) makes each cost ~80 instructions:
          // W1 Reactor 1085 → 907 instructions per action (Tooling/callgrind.sh). The context
          // saves looking the core up again (for a reactor without a `runtime` property, a second
          // lookup in the shared table). The casts are unchecked: checked casts (`as!`) here and
          // in `reduce` cost W1 Reactor 938 → 1,089 instructions per action (+16 %).
          return sender.withContext { reactor, core in
            step(
              input,
              of: unsafeDowncast(reactor, to: R.self),
              core: core.map { unsafeDowncast($0, to: ReactorCore.self) },
              isReplay: isReplay
            )
          }
        }
        guard let reactor = reactor.reactor else {
          // The reactor is gone but its machinery lives on: a runtime in the shared table, until
          // the table is swept (`ReactorRuntimes`). Its work ends at this first input after the
          // release: its effects are cancelled and its state streams end.
          closer.closeStore()
          return .none
        }
        switch step(input, of: reactor, core: nil, isReplay: isReplay) {
        case .none: return .none
        case .one(let input), .owned(let input, _): return .owned(input, owner: reactor)
        case .general(let inputs, let later, _):
          return .general(inputs, later: later, owner: reactor)
        }
      },
      reduce: { state, input, owner in
        guard case .mutation(let mutation, _) = input else { return }
        // Safety: `owner` is the sender or the reductions' owner (see `step`): the reactor, an
        // `R`, kept alive by the engine for the call.
        owner.with { unsafeDowncast($0, to: R.self).reduce(into: &state, mutation: mutation) }
      },
      start: { later, input, owner in
        guard case .action(let action) = input, let later = later as? Mutations<Mutation>.Later
        else { return }
        owner.withContext { reactor, core in
          if let core = core as? ReactorCore {
            core.start(later, for: action)
          } else if let reactor = reactor as? R {
            reactor.runtime.builtCore._withUnsafeGuaranteedRef { $0.start(later, for: action) }
          }
        }
      }
    )
  }

  /// The reductions of one input of `reactor`: an action's synchronous mutations and its
  /// asynchronous work; a mutation itself.
  ///
  /// A replayed action starts nothing: its mutations are replayed after it. `core` is the
  /// reactor's core when its sender passed it; `nil` to look it up.
  @inlinable @inline(__always)
  static func step<R: Reactor>(
    _ input: Input,
    of reactor: R,
    core: ReactorCore?,
    isReplay: Bool
  ) -> EngineReductions<Input>
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    guard case .action(let action) = input else { return .one(input) }
    if isReplay { return .none }
    let mutations = reactor.mutate(action: action).asMutations()
    if let core { return core.reductions(of: mutations, for: action) }
    // Processing only happens once the core has been built (`ReactorStart`).
    return reactor.runtime.builtCore._withUnsafeGuaranteedRef {
      $0.reductions(of: mutations, for: action)
    }
  }

  /// What the engine reduces now of `action`'s mutations, and what it starts after.
  ///
  /// Through a `transform(mutation:)` chain, the synchronous mutations go into the chain now,
  /// which decides what reaches the store.
  @inlinable @inline(__always)
  func reductions(
    of mutations: Mutations<Mutation>,
    for action: Action
  ) -> EngineReductions<Input> {
    if let mutationInput {
      switch mutations.immediate {
      case .none: break
      case .one(let mutation): mutationInput.onNext(mutation)
      case .many(let list): for mutation in list { mutationInput.onNext(mutation) }
      }
      return mutations.later.map { .general(.none, later: $0, owner: nil) } ?? .none
    }
    guard mutations.later == nil else { return Self.general(mutations, for: action) }
    switch mutations.immediate {
    case .none: return .none
    case .one(let mutation): return .one(.mutation(mutation, cause: action))
    case .many: return Self.general(mutations, for: action)
    }
  }

  /// The reductions of mutations with asynchronous work, or several synchronous ones.
  @inlinable
  static func general(
    _ mutations: Mutations<Mutation>,
    for action: Action
  ) -> EngineReductions<Input> {
    switch mutations.immediate {
    case .none:
      return .general(.none, later: mutations.later, owner: nil)
    case .one(let mutation):
      return .general(.one(.mutation(mutation, cause: action)), later: mutations.later, owner: nil)
    case .many(let list):
      // The one allocation of the step: the list of inputs, for an action with several
      // synchronous mutations (whose own list the reactor already allocated).
      return .general(
        .many(list.map { .mutation($0, cause: action) }),
        later: mutations.later,
        owner: nil
      )
    }
  }

  /// Starts `action`'s asynchronous mutations, once its synchronous ones are reduced.
  ///
  /// On the store's processing thread. A stream of mutations is started with the store's reduce
  /// window open: each mutation it emits while starting is reduced at once, before the stream
  /// goes on, as ReactorKit reduces right after each mutation — a `defer` block that reads
  /// `currentState` sees the mutations emitted before it (`Store.withReduceWindow`).
  ///
  /// Not through a `transform(mutation:)` chain: it merges other sources, whose mutations sent
  /// from other threads are queued, and one of them drained on this thread must not overtake
  /// them; there each mutation is queued behind the action, as before.
  @inlinable
  func start(_ later: Mutations<Mutation>.Later, for action: Action) {
    guard let work = later.work else { return }
    let id = later.id
    let cancelInFlight = later.cancelInFlight
    let deliver: @Sendable (Mutation, Store<State, Input>) -> Void
    if let mutationInput {
      deliver = { mutation, _ in mutationInput.onNext(mutation) }
    } else if case .stream = work {
      deliver = { mutation, store in
        // Emitted while the stream starts: reduced now (see above).
        if !store.reduceNowIfWindowOpen(.mutation(mutation, cause: action)) {
          store.send(.mutation(mutation, cause: action))
        }
      }
    } else {
      deliver = { mutation, store in store.send(.mutation(mutation, cause: action)) }
    }
    // Cancel the previous work now, while processing this action, so that what it queued (even
    // ahead of this action's command) is dropped (AT-26).
    if cancelInFlight, let id { store.cancelNow(id: id) }
    switch work {
    case .operation(let operation):
      store.run("mutate(\(action))", id: id, cancelInFlight: cancelInFlight) { _, store in
        try await operation(MutationSender { deliver($0, store) })
      }
    case .stream(let stream):
      // Subscribed now, so that streams on virtual time schedule at once. The stream is an
      // effect of the store's registry (`Store.start`): it sends through a handle of its own, is
      // disposed by `cancel(id:)` when it has an id, by the next stream with the same id when
      // `cancelInFlight`, and when the reactor shuts down or is released; what it queued is then
      // dropped.
      let name = "mutate(\(action))"
      if mutationInput == nil {
        store.withReduceWindow { store.start(stream, id: id, name: name, deliver: deliver) }
      } else {
        store.start(stream, id: id, name: name, deliver: deliver)
      }
    }
  }
}
