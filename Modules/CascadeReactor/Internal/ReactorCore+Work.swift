public import CascadeStore
public import CascadeStreams

extension ReactorCore {
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
    if deliveredDirectly { return selected }
    return Self.deliver(selected, on: scheduler, everyState: deliversEveryState, counting: store)
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
    if deliveredDirectly { return selected }
    return Self.deliver(selected, on: scheduler, everyState: deliversEveryState, counting: store)
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
      store.send(.action(action), sender: StepSender(reactor, context: self))
    }
  }

  /// Applies the synchronous mutations now and starts the asynchronous work.
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
  func perform(
    _ mutations: Mutations<Mutation>,
    for action: Action,
    reduceNow: (Input) -> Void
  ) {
    if mutationInput != nil || !mutations.startsStream {
      performNow(mutations, for: action, reduceNow: reduceNow)
      return
    }
    store.withReduceWindow {
      performNow(mutations, for: action, reduceNow: reduceNow)
    }
  }

  @inlinable
  func performNow(
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
    } else if case .stream = work {
      deliver = { mutation, store in
        // Emitted while the stream starts: reduced now (see `perform`).
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
      store.run("mutate(\(action))", id: id, cancelInFlight: cancelInFlight) {
        _,
        store in
        try await operation(MutationSender { deliver($0, store) })
      }
    case .stream(let stream):
      start(stream, for: action, id: id, deliver: deliver)
    }
  }

  /// Subscribes to a stream of mutations now, so that streams on virtual time schedule at once.
  ///
  /// The stream is an effect of the store's registry (`Store.start`): it sends through a handle
  /// of its own, is disposed by `cancel(id:)` when it has an id, by the next stream with the
  /// same id when `cancelInFlight`, and when the reactor shuts down or is released; what it
  /// queued is then dropped.
  @inlinable
  func start(
    _ stream: Observable<Mutation, any Error>,
    for action: Action,
    id: (any Hashable & Sendable)?,
    deliver: @escaping @Sendable (Mutation, Store<State, Input>) -> Void
  ) {
    store.start(stream, id: id, name: "mutate(\(action))", deliver: deliver)
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
