public import CascadeStore
public import CascadeStreams
public import Synchronization

extension Reactor {
  /// The action input: send actions with `onNext`, or bind a stream to it.
  ///
  /// It ignores `error` and `completed`: a terminated source never ends the reactor.
  ///
  /// ```swift
  /// refreshTaps.map { Reactor.Action.refresh }.bind(to: reactor.action)
  /// reactor.action.onNext(.refresh)
  /// ```
  @inlinable
  public var action: ActionInput<Action> {
    ActionInput(observers: runtime.actionObservers) { [weak self] action in self?.send(action) }
  }

  /// The current state (the stub's, while stubbed).
  ///
  /// Read inside one of the reactor's own `transform` hooks while it is being built, it is
  /// ``initialState``: nothing has been applied yet.
  @inlinable
  public var currentState: State {
    guard let core = runtime.coreIfBuilt(for: self) else { return initialState }
    if runtime.isStubbed { return core.stub.state.value }
    return core.store.state
  }

  /// The state stream: the current state on subscription, then every new one, delivered on
  /// ``scheduler`` after ``transform(state:)``.
  ///
  /// It replays the latest state to new subscribers and never fails. Where `State` is `Equatable`,
  /// consecutive equal states are dropped (see the overload).
  @inlinable
  public var state: Observable<State, Never> {
    guard let core = runtime.coreIfBuilt(for: self) else {
      return afterStart { $0.state }
    }
    if runtime.isStubbed { return core.stub.state.asObservable() }
    return core.stateStream
  }

  /// The stream of the value in a ``Pulse``: it emits on every assignment to the pulse, even of
  /// an equal value, and not when other parts of the state change.
  ///
  /// ```swift
  /// reactor.pulse(\.$alertMessage).compactMap { $0 }.subscribe(onNext: { showAlert($0) })
  /// ```
  @inlinable
  public func pulse<Value: Sendable>(
    _ keyPath: any KeyPath<State, Pulse<Value>> & Sendable
  ) -> Observable<Value, Never> {
    state.map { $0[keyPath: keyPath] }
      .distinctUntilChanged { $0.valueUpdatedCount == $1.valueUpdatedCount }
      .map(\.value)
      .asObservable()
  }

  /// Whether the reactor is stubbed: actions are recorded in ``stub`` instead of running
  /// `mutate` and `reduce`, and the state is the stub's.
  @inlinable
  public var isStubEnabled: Bool {
    get { runtime.isStubbed }
    set { runtime.isStubbed = newValue }
  }

  /// The stub: recorded actions and a settable state.
  @inlinable
  public var stub: ReactorStub<Action, State> { runtime.core(for: self).stub }

  /// Cancels the asynchronous work started with `id` (``Mutations/cancellable(id:cancelInFlight:)``
  /// or ``Mutations/run(id:cancelInFlight:_:)``); mutations it had queued are dropped.
  @inlinable
  public func cancel(id: some Hashable & Sendable) {
    runtime.core(for: self).cancel(id: id)
  }

  /// Waits until every action and mutation sent so far has been applied.
  ///
  /// Asynchronous work in flight is not waited for; ``finish()`` waits for it too.
  @inlinable
  public func settle() async {
    await runtime.core(for: self).store.settle()
  }

  /// Waits until the reactor is at rest: every asynchronous mutation operation and mutation
  /// stream started so far has ended, every action and mutation sent so far has been applied,
  /// and none of that started new work.
  ///
  /// The awaitable drain for tests, in place of polling:
  ///
  /// ```swift
  /// reactor.send(.refresh)        // mutate returns .run { send in … }
  /// await reactor.finish()
  /// #expect(reactor.currentState.items.count == 3)
  /// ```
  ///
  /// A stream that never completes keeps `finish` waiting: cancel it first
  /// (``cancel(id:)``). The streams of the `transform` hooks are the reactor's wiring, not work,
  /// and are not waited for.
  @inlinable
  public func finish() async {
    await runtime.core(for: self).store.finish()
  }

  /// How many states (and selections) wait for their delivery on ``scheduler`` now: at most one
  /// per subscription, unless the reactor ``deliversEveryState``.
  @inlinable
  public var deliveryBacklog: Int { runtime.core(for: self).store.deliveryBacklog }

  /// How many states (and selections) were replaced by a newer one before their delivery on
  /// ``scheduler`` ran, since the reactor started.
  @inlinable
  public var coalescedDeliveries: Int { runtime.core(for: self).store.coalescedDeliveries }

  /// The number of asynchronous mutation operations and mutation streams running now.
  @inlinable
  public var effectsInFlight: Int { runtime.core(for: self).store.effectsInFlight }

  /// Replays recorded inputs into the reactor: their states, and no effect.
  ///
  /// A reactor's recording holds its actions and the mutations each produced, in the order
  /// they were processed. Replaying it goes through the middlewares as live processing does,
  /// but **`mutate(action:)` is not called** — that is where a reactor starts its work — and
  /// no asynchronous mutation or mutation stream starts: each recorded mutation, synchronous or
  /// asynchronous, is reduced in its place. Actions and mutations sent by anything else during
  /// the replay (a `transform` stream, another thread) are dropped. Returns once every input was
  /// processed. See `Store.replay(_:)`; CascadeMiddleware's `Recording.replay(into:)` replays a
  /// file with it.
  ///
  /// ```swift
  /// let reactor = CounterReactor()
  /// await reactor.replay([.action(.increase), .mutation(.increaseValue, cause: .increase)])
  /// #expect(reactor.currentState.value == 1)
  /// ```
  @discardableResult
  public func replay(
    _ inputs: some Sequence<ReactorInput<Action, Mutation>>
  ) async
    -> ReplayReport
  {
    await runtime.core(for: self).store.replay(inputs)
  }

  /// The states as a stream: the current state on subscription, then every new one, delivered
  /// on ``scheduler`` after ``transform(state:)`` (the stub's, while stubbed).
  ///
  /// It never fails, and completes when the reactor shuts down. ReactorKit's name for it is
  /// `state`, which, where `State` is `Equatable`, also drops consecutive equal states.
  @inlinable
  public var states: Observable<State, Never> {
    guard let core = runtime.coreIfBuilt(for: self) else { return afterStart { $0.states } }
    if runtime.isStubbed { return core.stub.state.asObservable() }
    return core.stateStream
  }

  /// Ends the reactor: its asynchronous mutations and mutation streams are cancelled, the
  /// streams of its `transform` hooks are disposed, actions sent after are reported
  /// (`StoreDiagnostic.lateInput`) and dropped, and no state is delivered after this returns.
  public func shutdown() async {
    await runtime.core(for: self).shutdown()
  }
}

extension Reactor {
  /// A selection of the state as a stream: the current selection, then the selection of every
  /// new state, delivered on ``scheduler``; consecutive equal selections are dropped.
  ///
  /// Prefer it to `state.map(…)` for large states: the whole-state stream of an `Equatable`
  /// state keeps the previous state to compare with, which makes the next in-place mutation copy
  /// the state's storage; a selection keeps only the selected value.
  ///
  /// ```swift
  /// reactor.select { $0.items.count }.subscribe(onNext: { print($0) })
  /// ```
  @inlinable
  public func select<Selected: Sendable & Equatable>(
    _ select: @escaping @Sendable (State) -> Selected
  ) -> Observable<Selected, Never> {
    guard let core = runtime.coreIfBuilt(for: self) else {
      return afterStart { $0.select(select) }
    }
    if runtime.isStubbed {
      return core.stub.state.map(select).distinctUntilChanged().asObservable()
    }
    return core.selectionStream(select)
  }
}

extension Reactor {
  /// One element of a collection in the state as a stream, by index: the element now, then
  /// every time it changes, delivered on ``scheduler``.
  ///
  /// Streams of elements of the same collection share the store's subscription index (see
  /// `Store.select(_:at:)`): a thousand of them cost one pass over the subscribed elements per
  /// mutation, and only the changed ones emit. While `index` is outside the collection nothing
  /// is emitted.
  ///
  /// ```swift
  /// reactor.select(\.rows, at: 3).subscribe(onNext: { row in cell.show(row) })
  /// ```
  @inlinable
  public func select<Elements: RandomAccessCollection & Sendable>(
    _ collection: any KeyPath<State, Elements> & Sendable,
    at index: Elements.Index
  ) -> Observable<Elements.Element, Never>
  where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    guard let core = runtime.coreIfBuilt(for: self) else {
      return afterStart { $0.select(collection, at: index) }
    }
    if runtime.isStubbed {
      return core.stub.state
        .compactMap {
          ReactorCore<Action, Mutation, State>.element(of: $0[keyPath: collection], at: index)
        }
        .distinctUntilChanged().asObservable()
    }
    return core.elementStream(collection, at: index)
  }
}

extension Reactor where State: Equatable {
  /// The state stream, without consecutive equal states: the current state on subscription,
  /// then every new one that differs from the previous, delivered on ``scheduler``.
  @inlinable
  public var state: Observable<State, Never> {
    guard let core = runtime.coreIfBuilt(for: self) else {
      return afterStart { $0.state }
    }
    if runtime.isStubbed { return core.stub.state.distinctUntilChanged().asObservable() }
    return core.stateStream.distinctUntilChanged().asObservable()
  }
}

extension Reactor {
  /// The stream `makeStream` returns, subscribed once the reactor has started: for streams asked
  /// for inside one of the reactor's `transform` hooks while it is being built.
  @usableFromInline
  func afterStart<Element: Sendable>(
    _ makeStream: @escaping @Sendable (Self) -> Observable<Element, Never>
  ) -> Observable<Element, Never> {
    Observable.create { [weak self] observer in
      guard let self else {
        observer.onCompleted()
        return Disposables.empty
      }
      let subscription = SerialDisposable()
      runtime.whenStarted(self) { [weak self] _ in
        guard let self else { return }
        subscription.replace(with: makeStream(self).subscribe(observer))
      }
      return subscription
    }
  }
}

/// A reactor's action input: an observer that sends each value as an action, and a stream of
/// the actions sent to the reactor — ReactorKit's `ActionSubject`.
///
/// ```swift
/// button.taps.map { .refresh }.bind(to: reactor.action)
/// reactor.action.subscribe(onNext: { action in analytics.log(action) })
/// ```
///
/// Subscribing to it observes every action sent to the reactor from then on (through
/// `reactor.action` or ``Reactor/send(_:)``), after the reactor has handled it, on the sending
/// thread; it never fails or completes, as `error` and `completed` sent to it are ignored.
public struct ActionInput<Action: Sendable>: ObserverType, ObservableType {
  /// The actions.
  public typealias Element = Action
  /// It never fails.
  public typealias Failure = Never

  @usableFromInline let send: @Sendable (Action) -> Void
  @usableFromInline let observers: ActionObservers

  @usableFromInline
  init(observers: ActionObservers, _ send: @escaping @Sendable (Action) -> Void) {
    self.observers = observers
    self.send = send
  }

  /// Sends a value as an action; `error` and `completed` are ignored.
  public func on(_ event: StreamEvent<Action, Never>) {
    if case .next(let action) = event { send(action) }
  }

  /// Sends a value as an action.
  public func onNext(_ action: Action) {
    send(action)
  }

  /// Observes the actions sent to the reactor from now on.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Action, Observer.Failure == Never {
    observers.subscribe(observer)
  }

  /// How many observers the actions have now.
  public var observerCount: Int { observers.count }
}

/// The observers of a reactor's actions: a subject made when the first one subscribes, so that
/// a reactor whose actions nobody observes pays one load per action.
///
/// Not generic, so that the check on every action reads a field at a fixed offset; the subject
/// (a `PublishSubject` of the reactor's actions) is kept type-erased.
@usableFromInline
final class ActionObservers: Sendable {
  /// Whether anyone observes the actions: read by `send` on every action.
  @usableFromInline let observed = Atomic<Bool>(false)
  private let subject = LockedValue<(any Sendable)?>(nil)
  private let observerCount = Atomic<Int>(0)

  @usableFromInline init() {}

  var count: Int { observerCount.load(ordering: .relaxed) }

  @usableFromInline
  func emit<Action: Sendable>(_ action: Action) {
    (subject.withLock { $0 } as? PublishSubject<Action, Never>)?.onNext(action)
  }

  func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Failure == Never {
    let subject = subject.withLock { subject -> PublishSubject<Observer.Element, Never> in
      if let existing = subject as? PublishSubject<Observer.Element, Never> { return existing }
      let made = PublishSubject<Observer.Element, Never>()
      subject = made
      return made
    }
    observed.store(true, ordering: .releasing)
    observerCount.add(1, ordering: .relaxed)
    let subscription = subject.subscribe(observer)
    return Disposables.create { [self] in
      subscription.dispose()
      observerCount.subtract(1, ordering: .relaxed)
    }
  }
}
