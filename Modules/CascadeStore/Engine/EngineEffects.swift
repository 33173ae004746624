public import CascadeStreams

extension StoreEngine {
  // MARK: - Effects: commands, their tasks, parked commands, cancellation

  @usableFromInline
  var handle: Store<State, Action> { Store(engine: self, origin: nil) }

  /// What middlewares send further inputs with: made once (with a weak reference to the engine)
  /// when the engine has middlewares.
  @usableFromInline
  var dispatcher: MiddlewareDispatcher<Action> { dispatcherStorage ?? .none }

  @inlinable
  func run(_ command: CommandBox<State, Action>) {
    // `store.run { … }` without an id: nothing to cancel first and nothing to ask the state, so
    // the registration's own check of a replay (`startEffect`) is the only lock it takes.
    if command.startsAtOnce, case .async(let name, let body) = command.work {
      startCommand(named: name, key: nil, state: machine.pointee.state, body)
      return
    }
    // A command queued before a replay began does not run during it: it is an effect.
    if storage.withLock({ $0.skipsEffectForReplay() }) { return }
    let state = machine.pointee.state
    if let id = command.id, command.cancelInFlight { cancel(id: id) }
    if command.canExecute(state) {
      execute(command, state: state)
      return
    }
    park(command)
  }

  /// Parks `command` until the state allows it or it expires.
  @usableFromInline
  func park(_ command: CommandBox<State, Action>) {
    let deadline = scheduler.now.advanced(by: command.expiration)
    storage.withLock { $0.park(command, until: deadline) }
    _ = Resources.increment(charging: account)
    let timer = scheduler.schedule(after: command.expiration) { [weak self] in
      self?.submit(.expireCommands)
    }
    timers.insert(timer)
  }

  @inlinable
  func execute(_ command: CommandBox<State, Action>, state: State) {
    switch command.work {
    case .sync(let body):
      // What the command sends before it returns completes its turn: it is processed ahead of
      // the inputs queued meanwhile (otherwise a command queued behind this one would run
      // against a state that misses this one's effects), after what earlier commands sent.
      machine.pointee.holder.collectingCommandInputs = true
      body(state, handle)
      machine.pointee.holder.collectingCommandInputs = false
    case .async(let name, let body):
      startCommand(named: name, key: command.id, state: state, body)
    }
  }

  /// Starts an asynchronous command's `body` in a task the store tracks (an effect of
  /// ``EffectRegistry``), cancelled on shutdown and, when it has a `key`, by `cancel(id:)`.
  ///
  /// `body` gets a handle whose inputs are tagged with the command, so that inputs it queued
  /// before a cancellation are dropped with it.
  ///
  /// One object per command (``CommandTask``: the registry's entry, the origin of what it
  /// sends, and what its task runs), and its task. The task begins at once, on this thread,
  /// and runs here until its first suspension: a command that does not suspend is over when
  /// `Task.immediate` returns, and its start costs two lock round trips (registering, ending),
  /// not three, and no cancellation of a task that is done.
  ///
  /// Inlinable, so that it is specialized for the store's types where the store is used: the
  /// generic form looked up the task's and closures' generic metadata about 20 times per
  /// command (40% of the instructions of W4's round trip, callgrind).
  @inlinable
  func startCommand(
    named name: String,
    key: CommandID?,
    state: State,
    _ body: @escaping @Sendable (State, Store<State, Action>) async throws -> Void
  ) {
    let registered = storage.withLock { machine in
      machine.startEffect(key: key, stop: nil) { id, slot in
        CommandTask(id: id, slot: slot, engine: self, name: name, state: state, body: body)
      }
    }
    guard let (command, probe) = registered else { return }
    _ = Resources.increment(charging: account)
    probe?.commandStarted(command.id, name)
    if tracing, tracerIsTracing() {
      tracer?.effectStarted(command.id, name: name, at: StepTiming.now)
    }
    // The task begins at once, on this thread, and runs here until its first suspension: so
    // effects started one after another (by one input) begin in that order, always, however
    // busy the cooperative pool is. No lock is held.
    //
    // `Task.immediate` is called in a loop of one iteration, so that the optimizer inlines it:
    // its `executorPreference: (any TaskExecutor)? = nil` is then folded away. Called as a
    // function instead (the optimizer's choice outside a loop), it hands the runtime a task
    // option record even for `nil`, and the runtime gives the task an executor preference
    // record: pushed under the task's status lock at its creation, looked up under that lock at
    // each of its switches, removed at its end. That cost 1,125 instructions of W4 Store's round
    // trip (callgrind, Swift 6.3: 10,522 → 9,397). A closure handed on through a helper does not
    // keep this: its isolation is converted (a thunk and a task switch, +700).
    var immediate: Task<Void, Never>?
    for _ in 0..<1 { immediate = Task.immediate { await command.run() } }
    // The loop ran once.
    let task = immediate!
    // Over already (it did not suspend): it has left the registry, and there is nothing to stop.
    if command.hasEnded { return }
    // Cancelled (or ended) while it began: the stop it missed is called now.
    if !storage.withLock({ $0.effects.setStop(.task(task), for: command) }) { task.cancel() }
  }

  /// Registers an effect that is not a task of the store's (a stream of mutations, a feedback
  /// effect), cancellable by `key` if it has one; returns its origin, which tags its inputs
  /// (``Store/beginEffect(id:name:stop:)``), or `nil` if the store has closed.
  ///
  /// Pair with exactly one ``endEffect(_:)``.
  @usableFromInline
  func beginEffect(
    key: CommandID?,
    name: () -> String,
    stop: @escaping @Sendable () -> Void
  ) -> EffectOrigin? {
    guard let (origin, probe) = storage.withLock({ $0.startEffect(key: key, stop: .dispose(stop)) })
    else { return nil }
    _ = Resources.increment(charging: account)
    // The name is only made for a probe or a tracer: describing an input can cost thousands of
    // instructions.
    let timed = tracing && tracerIsTracing()
    if probe != nil || timed {
      let name = name()
      probe?.commandStarted(origin.id, name)
      if timed { tracer?.effectStarted(origin.id, name: name, at: StepTiming.now) }
    }
    return origin
  }

  /// `origin`'s effect ended, however it ended.
  ///
  /// Inlinable, so that a command's task calls it specialized: the generic form looked up the
  /// metadata of its lock's result (a tuple with an optional probe) on every call.
  @inlinable
  func endEffect(_ origin: EffectOrigin) {
    if tracing, !origin.isReplay {
      // Before the registry lets it go: once it has, `finish()` may return, and the tracer must
      // have seen the end by then.
      tracer?.effectEnded(origin.id, cancelled: origin.isCancelled, at: StepTiming.now)
    }
    let (ended, probe, waiters) = storage.withLock { $0.endEffect(origin) }
    guard ended else { return }
    Resources.decrement(charging: account)
    probe?.commandFinished(origin.id)
    for waiter in waiters { waiter.resume() }
  }

  /// Cancels the effects started under `id` and the parked commands with that id.
  ///
  /// Their tasks are cancelled and their streams disposed; what they already queued is dropped.
  /// Run while processing (a `.cancel` work item, or a reactor's `mutate`) it is a barrier in
  /// the order of inputs.
  @usableFromInline
  func cancel(id: CommandID) {
    let (stops, parked) = storage.withLock { $0.cancel(key: id) }
    for stop in stops { stop() }
    for _ in 0..<parked { Resources.decrement(charging: account) }
  }

  /// Cancels one effect, from any thread: what it queued is dropped.
  @usableFromInline
  func cancelEffect(_ origin: EffectOrigin) {
    let stop = storage.withLock { $0.effects.cancel(effect: origin) }
    stop?()
  }

  /// Runs the parked commands that the state now allows.
  ///
  /// `canExecute(state:)` is the user's code, so it is asked without the lock. Only the
  /// processing thread (this one) adds or removes parked commands, except `close()`, which
  /// empties the list from any thread: if the list changed meanwhile, the store closed and
  /// nothing runs.
  @usableFromInline
  func runParkedCommands() {
    let state = machine.pointee.state
    // Parked commands wait out a replay: they are effects.
    let parked = storage.withLock { $0.replaying > 0 ? [] : $0.parked }
    guard !parked.isEmpty else { return }
    let allowed = parked.map { $0.command.canExecute(state) }
    guard allowed.contains(true) else { return }
    let ready = storage.withLock { $0.takeParked(allowed: allowed, of: parked.count) }
    for parked in ready {
      Resources.decrement(charging: account)
      execute(parked.command, state: state)
    }
  }

  @usableFromInline
  func expireCommands() {
    let now = scheduler.now
    let state = machine.pointee.state
    let expired = storage.withLock { $0.takeExpired(at: now) }
    for parked in expired {
      Resources.decrement(charging: account)
      parked.command.didExpire(state, handle)
    }
  }

  var parkedCount: Int { storage.withLock { $0.parked.count } }
  var inFlightCount: Int { storage.withLock { $0.effects.count } }
}
