public import CascadeStore
public import CascadeStreams

/// A running state machine: a state, a reducer, and feedbacks that watch the state and emit
/// events — ReactiveFeedback's `SignalProducer.system` as an object you keep.
///
/// ```swift
/// enum Event: Sendable { case increment, decrement }
///
/// let loop = FeedbackLoop(
///   initialState: 0,
///   reduce: { count, event in
///     switch event {
///     case .increment: count + 1
///     case .decrement: count - 1
///     }
///   },
///   feedbacks: [.input(plusTaps.map { .increment }), .input(minusTaps.map { .decrement })]
/// )
/// loop.states.map(String.init).subscribe(onNext: { label.text = $0 })
/// ```
///
/// **Ordering.** Events are reduced one at a time, in order, from any thread. Every feedback
/// sees every state, in order, exactly once, starting with the initial state (all feedbacks
/// see it before any event is reduced). An event emitted synchronously while a state is being
/// delivered is queued and reduced after the delivery finishes, so it is never reduced against
/// a stale state.
///
/// **Lifetime.** The loop owns its feedbacks' subscriptions and effects. ``shutdown()``, or
/// releasing the loop, cancels them; events they had emitted but that were not yet reduced are
/// dropped, and nothing is delivered afterwards.
public final class FeedbackLoop<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline let store: Store<State, Event>
  /// The store's engine, which `send` calls directly (see `ReactorCore.engine`).
  @usableFromInline let engine: StoreEngine<State, Event>
  @usableFromInline let subscriptions = CompositeDisposable()
  @usableFromInline let stateStream: Observable<State, Never>
  /// The feedbacks' way in (see ``settleLimit``).
  @usableFromInline let gate: FeedbackGate<State, Event>
  /// The command that starts the feedbacks.
  @usableFromInline let start: StartFeedbacks<State, Event>

  /// How many events the feedbacks may send in a row, each in response to a state their previous
  /// event produced, with no event from outside, before the loop is deemed not to settle:
  /// 1,000,000 (a loop that legitimately runs a long chain, W5's 100,000 steps, stays well
  /// below).
  ///
  /// Such events are reduced in the same processing run as the event that started them, so a
  /// feedback that answers every state with an event would otherwise keep its caller (the
  /// loop's `init`, or ``send(_:)``) forever. Past the limit the loop reports
  /// `StoreDiagnostic.loopDidNotSettle(events:)` once, then sends each following event through
  /// its scheduler, a millisecond after the previous one, and the caller gets control back: the
  /// loop goes on at one event per millisecond (on a `TestScheduler`, one per millisecond
  /// advanced) until an event from outside arrives. An `ImmediateScheduler` has no later time:
  /// the loop reports the diagnostic and goes on at once, losing no event.
  public static var settleLimit: Int { 1_000_000 }

  /// Creates and starts a loop with a reducer that returns the next state (the seed's form).
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - reduce: The pure function `(State, Event) -> State`.
  ///   - feedbacks: The feedbacks, started in order.
  ///   - scheduler: Where ``states`` delivers, and the clock middlewares see. Default: the main
  ///     queue, through a `MainScheduler` of the loop's own (synchronously when the event was
  ///     reduced there and none of the loop's states waits there).
  ///   - deliversEveryState: Whether ``states`` delivers every state on `scheduler`, in order,
  ///     however far behind its subscribers are. Default `false`: a subscriber that is behind
  ///     gets the **latest** state (a state that arrives while another waits for its delivery
  ///     replaces it), so a burst of events never builds a backlog (``deliveryBacklog``,
  ///     ``coalescedDeliveries``). Feedbacks see every state either way.
  ///   - middlewares: Middlewares that see every event and the resulting state.
  ///   - diagnostics: Receives what goes wrong in the loop's machinery: a failed effect
  ///     (`StoreDiagnostic.effectFailed`), an event emitted after the loop shut down. Default:
  ///     `nil`, which reports them as test failures or runtime warnings.
  @inlinable
  public convenience init(
    initialState: State,
    reduce: @escaping @Sendable (State, Event) -> State,
    feedbacks: [Feedback<State, Event>],
    scheduler: any Scheduler = MainScheduler(),
    deliversEveryState: Bool = false,
    middlewares: [any Middleware<Event, State>] = [],
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil
  ) {
    self.init(
      initialState: initialState,
      reduceInPlace: { state, event in state = reduce(state, event) },
      feedbacks: feedbacks,
      scheduler: scheduler,
      deliversEveryState: deliversEveryState,
      middlewares: middlewares,
      diagnostics: diagnostics
    )
  }

  /// Creates and starts a loop with a reducer that updates the state in place (no copy of the
  /// state per event).
  ///
  /// The parameters are those of ``init(initialState:reduce:feedbacks:scheduler:deliversEveryState:middlewares:diagnostics:)``.
  @inlinable
  public convenience init(
    initialState: State,
    reduceInPlace reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    scheduler: any Scheduler = MainScheduler(),
    deliversEveryState: Bool = false,
    middlewares: [any Middleware<Event, State>] = [],
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil
  ) {
    self.init(
      initialState: initialState,
      reduceInPlace: reduce,
      feedbacks: feedbacks,
      scheduler: scheduler,
      deliversEveryState: deliversEveryState,
      middlewares: middlewares,
      diagnostics: diagnostics,
      startingFeedbacks: true,
      hoppingEvents: false,
      settleLimit: Self.settleLimit
    )
  }

  /// Creates a loop that starts its feedbacks now, or when ``startFeedbacks()`` is called.
  ///
  /// With `startingFeedbacks` false, the caller subscribes to the states first, then calls
  /// ``startFeedbacks()`` (once). With `hoppingEvents`, each event a feedback emits is sent
  /// through `scheduler`, a turn later (`Observable.system`). `settleLimit` is ``settleLimit``,
  /// or a smaller one in tests.
  @inlinable
  package init(
    initialState: State,
    reduceInPlace reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    scheduler: any Scheduler,
    deliversEveryState: Bool,
    middlewares: [any Middleware<Event, State>],
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)?,
    startingFeedbacks: Bool,
    hoppingEvents: Bool,
    settleLimit: Int
  ) {
    store = Store(
      initialState: initialState,
      middlewares: middlewares,
      isolation: .callerThread,
      reentrancy: .queue,
      scheduler: scheduler,
      diagnostics: diagnostics,
      reducer: reduce
    )
    engine = store.engine
    // The store's state stream replays the current state to each subscriber by itself.
    stateStream =
      scheduler is ImmediateScheduler
      ? store.states
      : store.states.observe(
        on: scheduler,
        coalescing: !deliversEveryState,
        counters: store.deliveryCounters,
        keepsFirst: true,
        firstImmediately: true
      )
    let store = store
    let subscriptions = subscriptions
    let gate = FeedbackGate<State, Event>(
      scheduler: scheduler,
      limit: settleLimit,
      hops: hoppingEvents
    )
    self.gate = gate
    let context = FeedbackContext<State, Event>(
      states: store.states,
      // Strong: the loop disposes every feedback (and so these closures) when it stops or is
      // released, which breaks the cycle; a weak reference would give the store a side table
      // and make every retain of it slower.
      send: { gate.send($0, through: store) },
      report: { error in
        store.report(.effectFailed(effect: "feedback effect", error: error))
      },
      // Effects are effects of the store's cancellation registry: cancelling one drops the
      // events it sent that are still queued.
      beginEffect: { stop in
        guard let handle = store.beginEffect(id: nil, name: "feedback effect", stop: stop) else {
          return nil
        }
        return EffectLease(
          send: { gate.send($0, through: handle) },
          cancel: { handle.cancelEffect() },
          end: { handle.endEffect() }
        )
      }
    )
    start = StartFeedbacks(
      feedbacks: feedbacks,
      context: context,
      into: subscriptions,
      gate: gate
    )
    if startingFeedbacks { startFeedbacks() }
  }

  /// Starts the feedbacks, inside one processing turn, so that each sees the initial state
  /// before any event they emit on it is reduced.
  @inlinable
  package func startFeedbacks() {
    store.fire(command: start)
  }

  deinit {
    subscriptions.dispose()
    // Effects winding down may still hold the store for a moment: end it now, not with them.
    store.close()
  }

  /// Sends an event from outside: reduced before this returns, unless another thread is
  /// reducing (which then reduces it).
  ///
  /// Always inlined: for an existential event type, the loop keeps the caller's box (see
  /// `Store.send(_:)`).
  @inlinable @inline(__always)
  public func send(_ event: Event) {
    gate.noteOutsideEvent()
    engine.send(event)
  }

  /// The current state.
  public var currentState: State { store.state }

  /// The states: the current one on subscription, then every new one, delivered on the loop's
  /// scheduler.
  ///
  /// The current state is delivered at once, on the subscribing thread (when the loop is not
  /// reducing on another thread at that moment), before any later state, and is never replaced
  /// by a later one, as ReactiveFeedback's `system` delivers its initial state: a subscriber
  /// always sees the state it subscribed to, however late it subscribes.
  ///
  /// It completes when the loop shuts down.
  public var states: Observable<State, Never> { stateStream }

  /// Shuts the loop down: feedbacks and their effects are cancelled, and events not yet reduced
  /// are dropped.
  ///
  /// Nothing is delivered after it returns.
  public func shutdown() async {
    close()
  }

  /// Ends the loop at once, as ``shutdown()`` does, for callers that cannot wait (a test
  /// scheduler's virtual time).
  package func close() {
    subscriptions.dispose()
    store.close()
  }

  /// How many states wait for their delivery on the loop's scheduler now, over all subscribers
  /// of ``states``: at most one per subscriber, unless the loop delivers every state.
  public var deliveryBacklog: Int { store.deliveryBacklog }

  /// How many states were replaced by a newer one before their delivery to a subscriber of
  /// ``states`` ran, since the loop was made.
  public var coalescedDeliveries: Int { store.coalescedDeliveries }

  /// The number of feedback effects running now.
  public var effectsInFlight: Int { store.effectsInFlight }

  /// Replays `events` into the loop: their states, and no effect.
  ///
  /// Each event is reduced and the states are delivered as for a sent event, but no feedback
  /// effect starts (the recording already holds the events the effects sent, and replays them
  /// in their place), and events sent by anything else during the replay (feedbacks reacting
  /// to a replayed state, other threads) are dropped. Returns once every event was reduced. See
  /// `Store.replay(_:)`; CascadeMiddleware's `Recording.replay(into:)` replays a file with it.
  ///
  /// ```swift
  /// let loop = FeedbackLoop(initialState: Paging(), reduce: Paging.reduce, feedbacks: [loadPage])
  /// let report = await loop.replay(recording.inputs)  // no request is made
  /// ```
  ///
  /// Effects the final state calls for (a predicate that holds at the end) start when the state
  /// next changes.
  @discardableResult
  public func replay(_ events: some Sequence<Event>) async -> ReplayReport {
    await store.replay(events)
  }

  /// Waits until every event sent so far has been reduced.
  ///
  /// Effects in flight are not waited for; ``finish()`` waits for them too.
  public func settle() async {
    await store.settle()
  }

  /// Waits until the loop is at rest: every effect started so far (by a query, predicate or
  /// request feedback, streams and `async` effects alike) has ended, every event sent so far has
  /// been reduced, and none of that started a new effect.
  ///
  /// The awaitable drain for tests, in place of polling:
  ///
  /// ```swift
  /// loop.send(.retry)             // the paging feedback starts loading
  /// await loop.finish()           // the request ended and its response was reduced
  /// #expect(loop.currentState.movies.count == 20)
  /// ```
  ///
  /// An effect runs until its stream ends, so an effect that never completes — a keyed
  /// request's effect, which lives as long as its key — keeps `finish` waiting while it runs.
  /// Feedbacks themselves (their subscriptions to the states, ``Feedback/input(_:)``) are the
  /// loop's wiring, not effects, and are not waited for. It returns at once once the loop has
  /// shut down.
  public func finish() async {
    await store.finish()
  }
}

/// Starts the feedbacks of a loop on its processing thread.
@usableFromInline
struct StartFeedbacks<State: Sendable, Event: Sendable>: Command {
  @usableFromInline let feedbacks: [Feedback<State, Event>]
  @usableFromInline let context: FeedbackContext<State, Event>
  @usableFromInline let into: CompositeDisposable
  /// Holds what feedbacks emit while they start, until all have subscribed to the states.
  @usableFromInline let gate: FeedbackGate<State, Event>

  @usableFromInline
  init(
    feedbacks: [Feedback<State, Event>],
    context: FeedbackContext<State, Event>,
    into: CompositeDisposable,
    gate: FeedbackGate<State, Event>
  ) {
    self.feedbacks = feedbacks
    self.context = context
    self.into = into
    self.gate = gate
  }

  @usableFromInline
  func execute(state: State, core: Store<State, Event>) {
    for feedback in feedbacks { into.insert(feedback.start(context)) }
    // Queued behind the feedbacks' subscriptions: reduced after all of them saw the initial state.
    gate.open()
  }
}

extension FeedbackLoop: StateContainer {
  /// What the loop processes: its events.
  public typealias Input = Event
}
