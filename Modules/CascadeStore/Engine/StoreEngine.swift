public import CascadeStreams
public import Dispatch
import IssueReporting
public import Synchronization

/// The machinery behind ``Store``: it takes the lock, calls one transition of its
/// ``EngineStateMachine`` (the whole protocol: the processing token, the queues, the lifecycle,
/// replays, effects, subscriptions) and acts on the answer once the lock is given up.
///
/// **Processing.** One thread at a time holds the *processing token*: the first sender on
/// ``StoreIsolation/callerThread``, or the store's queue. It takes work items off the FIFO one by
/// one: runs the middlewares' interception, reduces the state **in place**, runs the middlewares'
/// processing and notifies the subscriptions, then takes the next item. Inputs sent meanwhile by
/// any thread are appended to the FIFO (unbounded; nothing is dropped before shutdown) and the
/// sender returns.
///
/// **Locking.** The lock of `storage` guards the machine. The reducer runs with it held: that is
/// what lets it mutate the state in place while other threads read `state` consistently — the one
/// piece of user code that runs under the lock, which is why it must be pure; a send from inside
/// it is detected (by the machine's published holder thread, without taking the lock) and handled
/// by the reentrancy policy (queued by default). Middlewares, subscribers and commands (a parked
/// command's `canExecute(state:)` included) run with no lock held; command ids are compared under
/// it. The processing thread reads the state without the lock between reductions: it is the only
/// writer, and other threads only read. The DocC article "The engine" draws the machine and the
/// send paths.
///
/// Package-visible for the architectures built on it: a reactor's core and a feedback loop keep
/// their store's engine and call ``send(_:sender:)`` on it, with no hop through ``Store``.
@usableFromInline
package final class StoreEngine<State: Sendable, Action: Sendable>: @unchecked Sendable {
  @usableFromInline typealias Work = EngineWork<State, Action>
  @usableFromInline typealias Machine = EngineStateMachine<State, Action>

  // Safety: `storage` guards the `Machine`, the whole protocol's state; every other stored
  // property is immutable, but `elementGroups`, only touched by the thread holding the processing
  // token. The machine's `HolderState` is read without the lock by the token holder only (its
  // `holderThread` is an atomic). Proven under
  // ThreadSanitizer in CI: StoreConcurrencyTests, ReplayConcurrencyTests and every other
  // *ConcurrencyTests suite that runs a store, reactor or feedback loop.
  @usableFromInline let storage: LockedValue<Machine>
  @usableFromInline let reducer: @Sendable (inout State, Action) -> Void
  /// The middlewares, attached (``EngineAttachment``).
  @usableFromInline let middlewares: MiddlewareStack<Action, State>
  /// The architecture's program, if it has one (see ``EngineProgram``).
  ///
  /// It turns one input into the inputs to reduce now (a reactor's action into its synchronous
  /// mutations) and the work to start after them, on the processing thread, with no lock held;
  /// without one, each input is reduced as it is with ``reducer``.
  ///
  /// Its three closures are kept apart: each is loaded where it is called, without copying the
  /// others (which retains their contexts, ~40 instructions per input each).
  @usableFromInline let step: EngineProgram<State, Action>.Step?
  @usableFromInline let reduceStepped: EngineProgram<State, Action>.Reduce?
  @usableFromInline let startLater: EngineProgram<State, Action>.Start?
  /// Whether a middleware intercepts inputs, and whether one processes them: without one, the
  /// engine copies no state for them and makes no record.
  @usableFromInline let interceptsInputs: Bool
  @usableFromInline let processesInputs: Bool
  /// The middlewares' tracer (``Middleware/tracer``), and whether there is one: without one the
  /// engine reads no clock.
  @usableFromInline let tracer: (any StoreTracer)?
  @usableFromInline let tracing: Bool
  @usableFromInline let scheduler: any Scheduler
  @usableFromInline let isolation: StoreIsolation
  @usableFromInline let reentrancy: ReentrancyPolicy
  @usableFromInline let diagnostics: @Sendable (StoreDiagnostic) -> Void
  /// Whether subscriptions to an `Equatable` state or selection skip a value equal to the last
  /// one delivered, unless they say otherwise (ReSwift's `automaticallySkipsRepeats`).
  @usableFromInline let automaticallySkipsRepeats: Bool
  /// The resource account current where the store was made: its command tasks and waiting
  /// commands are charged to it, whichever thread starts them, and a queue that processes the
  /// store's inputs runs with it current.
  @usableFromInline let account = Resources.currentAccount
  let timers = CompositeDisposable()
  /// The deliveries waiting on schedulers, and those a newer state replaced.
  @usableFromInline let deliveryCounters = DeliveryCounters()
  /// The subscription index, by the key path of each collection.
  ///
  /// Element subscriptions are grouped by collection (``ElementGroup``). Only touched by the
  /// processing thread.
  @usableFromInline var elementGroups: [AnyKeyPath: AnyObject] = [:]
  /// Whether each input is reduced a second time, from a copy of the state, to check that the
  /// reducer is pure (``PurityCheck``); read when the store is created, always `false` in
  /// release builds.
  @usableFromInline let checksPurity = PurityCheck.isEnabled
  /// The middlewares' dispatcher (``EngineAttachment/dispatcher``); `nil` without middlewares.
  @usableFromInline let dispatcherStorage: MiddlewareDispatcher<Action>?
  /// The log of inputs a middleware opened (``MiddlewareHost/openLog(wake:)``) while attached.
  @usableFromInline let inputLog: EngineInputLog<State, Action>?

  init(
    state: State,
    reducer: @escaping @Sendable (inout State, Action) -> Void,
    middlewares: [any Middleware<Action, State>],
    scheduler: any Scheduler,
    isolation: StoreIsolation,
    reentrancy: ReentrancyPolicy,
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)?,
    automaticallySkipsRepeats: Bool = true,
    program: EngineProgram<State, Action>? = nil
  ) {
    self.automaticallySkipsRepeats = automaticallySkipsRepeats
    storage = LockedValue(Machine(state: state))
    step = program?.step
    reduceStepped = program?.reduce
    startLater = program?.start
    self.reducer = reducer
    // Attached first, then the stack made: it leaves out the processing of those that no
    // longer process inputs once attached.
    let attachment = middlewares.isEmpty ? nil : EngineAttachment<State, Action>(initial: state)
    if let attachment {
      self.middlewares = MiddlewareStack(attaching: middlewares, to: attachment.host)
    } else {
      self.middlewares = MiddlewareStack(middlewares)
    }
    inputLog = attachment?.closeLog()
    interceptsInputs = self.middlewares.interceptsInputs
    processesInputs = self.middlewares.processesInputs
    tracer = self.middlewares.tracer
    tracing = tracer != nil
    self.scheduler = scheduler
    self.isolation = isolation
    self.reentrancy = reentrancy
    self.diagnostics = diagnostics ?? StoreEngine.reportDiagnostic
    dispatcherStorage = attachment?.dispatcher
    attachment?.complete(self)
  }

  deinit {
    // What the last holder gathered and left for a take (the engine at rest), added to the log
    // for the middleware's last take.
    if inputLog?.hasGathered == true {
      inputLog?.addGathered()
      inputLog?.wake()
    }
  }

  static func reportDiagnostic(_ diagnostic: StoreDiagnostic) {
    switch diagnostic {
    case .lateInput: reportIssue(diagnostic.description, severity: .warning)
    default: reportIssue(diagnostic.description)
    }
  }

  // MARK: - Reading

  /// The machine, for what the token holder reads without the lock: the state between
  /// reductions (it is the only writer), its ``HolderState``, and ``EngineStateMachine/isHeld(by:)``
  /// (an atomic) from any thread.
  @usableFromInline
  var machine: UnsafeMutablePointer<Machine> { storage.unsafeValue }

  /// Whether the calling thread holds the processing token.
  @inlinable
  var isProcessingOnCurrentThread: Bool { machine.pointee.isHeld(by: currentThreadIdentity()) }

  var state: State {
    if isProcessingOnCurrentThread, machine.pointee.holder.reducing {
      preconditionFailure(
        "Store.state was read from inside the reducer, which receives the state as inout"
      )
    }
    return storage.withLock { $0.state }
  }

  /// The state, the last input's sequence number and whether no thread is processing, read
  /// together under the lock, from any thread (``MiddlewareHost/snapshot()``).
  func snapshot() -> MiddlewareSnapshot<State> {
    if isProcessingOnCurrentThread, machine.pointee.holder.reducing {
      preconditionFailure(
        "MiddlewareHost.snapshot() was called from inside the reducer, which holds the lock"
      )
    }
    return storage.withLock {
      MiddlewareSnapshot(state: $0.state, sequence: $0.sequence, isResting: !$0.processing)
    }
  }

  // MARK: - Submitting work

  /// Submits `work`, processing it now if no one else is processing.
  @inlinable
  func submit(_ work: Work) {
    let me = currentThreadIdentity()
    if machine.pointee.isHeld(by: me) {
      submitReentrant(work)
      return
    }
    let queue: DispatchQueue?
    switch isolation {
    case .callerThread: queue = nil
    case .queue(let own): queue = own
    case .mainQueue: queue = MainScheduler.isOnMainQueue ? nil : .main
    }
    switch storage.withLock({ $0.admit(work, by: me, handOver: queue != nil) }) {
    case .refused:
      dropLate(work)
    case .queued, .leftOutOfReplay:
      break
    case .process:
      process(work, sender: nil)
      drain(sender: nil)
    case .handOver:
      queue?.async { [self] in
        storage.withLock { $0.beginHolding(on: currentThreadIdentity()) }
        if let account {
          account.withCurrent { drain(sender: nil) }
        } else {
          drain(sender: nil)
        }
      }
    }
  }

  /// Sends an action from outside the store's effects: a reactor's or a feedback loop's `send`.
  ///
  /// `sender` is handed to the ``program`` of every input this thread processes before it gives up
  /// the processing token (see ``EngineProgram``).
  ///
  /// Always inlined, with its action wrapped (``SentInput``): for an existential action type, no
  /// engine function is rewritten for the caller's concrete type.
  @inlinable @inline(__always)
  package func send(_ action: Action, sender: StepSender? = nil) {
    submitAction(SentInput(action), origin: nil, sender: sender)
  }

  /// Submits an action: ``submit(_:)`` without boxing the action into a work item when the
  /// sending thread can process it at once (the common, uncontended case).
  ///
  /// `sender` is handed to the ``program`` of every input this thread processes before it gives up
  /// the processing token (see ``EngineProgram``).
  @inlinable
  func submitAction(_ sent: SentInput<Action>, origin: EffectOrigin?, sender: StepSender? = nil) {
    let me = currentThreadIdentity()
    if machine.pointee.isHeld(by: me) {
      // Sent while this thread processes (a subscriber's, a feedback's, or an effect's that runs
      // here): queued as itself, with its origin.
      submitReentrant(action: sent, origin: origin)
      return
    }
    guard origin == nil, takeTokenToProcessHere(me) else {
      // An effect's (checked for cancellation when processed), another isolation, another
      // thread processing, or the store closed: the general path decides.
      submit(.action(sent.input, origin: origin))
      return
    }
    reduce(sent, mark: nil, sender: sender)
    drain(sender: sender)
  }

  /// Submits `store.run { … }` without an id: ``submit(_:)`` of its command, without making a
  /// command or a work item of it when the calling thread can process it at once (the common,
  /// uncontended case), as ``submitAction(_:origin:sender:)`` does for an action.
  ///
  /// Such a command has nothing to cancel first and nothing to ask the state: it starts as soon
  /// as the store reaches it. A work item holding a command is copied through the enum's value
  /// witnesses (about 400 instructions of W4 Store's round trip, callgrind).
  @inlinable
  func submitCommand(
    named name: String,
    _ body: @escaping @Sendable (State, Store<State, Action>) async throws -> Void
  ) {
    let me = currentThreadIdentity()
    guard !machine.pointee.isHeld(by: me), takeTokenToProcessHere(me) else {
      var command = CommandBox(name: name, operation: body)
      command.startsAtOnce = true
      submit(.command(command))
      return
    }
    startCommand(named: name, key: nil, state: machine.pointee.state, body)
    drain(sender: nil)
  }

  /// Takes the idle processing token for thread `me` if the store processes on the caller's thread.
  ///
  /// The fast path of ``submitAction(_:origin:sender:)`` and ``submitCommand(named:_:)``. `false`
  /// for another isolation, or when another thread processes, a replay runs or the store closed:
  /// the general path (``submit(_:)``) then decides.
  @inlinable
  func takeTokenToProcessHere(_ me: UInt) -> Bool {
    guard case .callerThread = isolation else { return false }
    return storage.withLock { $0.takeTokenIfIdle(by: me) }
  }

  /// Work sent from inside the store's own processing, on the processing thread.
  ///
  /// An action without a mark is queued as itself, not as a work item (see ``WorkQueue``): `work`
  /// is consumed, so that taking the action out of it copies no work item.
  @inlinable
  func submitReentrant(_ work: consuming Work) {
    func admit(_ work: Work) {
      if reentrancy != .queue, case .action = work {
        reportReentrant(work)
        if reentrancy == .reject { return }
      }
      if machine.pointee.holder.reducing {
        // Inside the reducer this thread already holds the lock.
        _ = machine.pointee.admitReentrant(work)
      } else if !storage.withLock({ $0.admitReentrant(work) }) {
        dropLate(work)
      }
    }
    // The payload is bound whole, then checked: a pattern that tests it copies the work item.
    switch consume work {
    case .action(let action, let origin, let mark):
      guard mark == nil, reentrancy == .queue else {
        admit(.action(action, origin: origin, mark: mark))
        return
      }
      submitReentrant(action: SentInput(action), origin: origin)
    case let other:
      admit(other)
    }
  }

  /// ``submitReentrant(_:)`` for `.action(action, origin: origin)`, which makes no work item of
  /// the action.
  @inlinable
  func submitReentrant(action sent: SentInput<Action>, origin: EffectOrigin?) {
    let action = sent.input
    guard reentrancy == .queue else {
      submitReentrant(.action(action, origin: origin))
      return
    }
    if machine.pointee.holder.reducing {
      // Inside the reducer this thread already holds the lock.
      _ = machine.pointee.admitReentrant(action: action, origin: origin)
    } else if !storage.withLock({ $0.admitReentrant(action: action, origin: origin) }) {
      dropLate(.action(action, origin: origin))
    }
  }

  /// Reports a reentrant send under the report and reject policies.
  @usableFromInline
  func reportReentrant(_ work: Work) {
    guard case .action(let action, _, _) = work else { return }
    // Inside the reducer this thread already holds the lock.
    let during =
      (machine.pointee.holder.reducing
        ? machine.pointee.current : storage.withLock { $0.current }) ?? "?"
    let rejected = reentrancy == .reject
    diagnostics(.reentrant(input: "\(action)", during: during, rejected: rejected))
  }

  @usableFromInline
  func dropLate(_ work: Work) {
    switch work {
    case .action(let action, let origin, _):
      diagnostics(.lateInput("\(action)", origin: origin?.effectName))
    case .run(_, let dropped):
      dropped()
    default:
      break
    }
  }

  /// Processes queued work until none is left, then gives up the processing token
  /// (``EngineStateMachine/next(into:)``).
  ///
  /// The lock is taken and given up by hand (one of the two places; ``apply(_:mark:reducer:)``
  /// is the other): the work item is taken out under it and processed after it, and a
  /// `withLock` closure returning it costs a generic copy and destroy of the item per input
  /// (callgrind, W1 Store: +130 instructions per action).
  @inlinable
  func drain(sender: StepSender?) {
    while true {
      storage.lock()
      if machine.pointee.hasWork {
        if machine.pointee.nextIsPlainAction {
          // An action the processing thread sent itself (a subscriber's, a feedback's, an
          // effect's), queued and taken as itself: no work item copied (see `WorkQueue`).
          let next = machine.pointee.takeNextAction()
          storage.unlock()
          if let origin = next.origin {
            process(next.action, origin: origin, mark: nil, sender: sender)
          } else {
            reduce(SentInput(next.action), mark: nil, sender: sender)
          }
          continue
        }
        let work = machine.pointee.takeNext()
        storage.unlock()
        process(work, sender: sender)
        continue
      }
      if inputLog != nil, machine.pointee.logAwaited, inputLog?.hasGathered == true {
        // What was gathered, added to the log under the lock (the log's own lock is taken
        // inside the engine's, never the other way round), and the middleware's thread woken
        // with no lock held, before the token is given up (see `log(_:sequence:)`).
        machine.pointee.logAwaited = false
        inputLog?.addGathered()
        storage.unlock()
        inputLog?.wake()
        continue
      }
      let release = machine.pointee.releaseToken()
      storage.unlock()
      inputLog?.letGoOfGivenBackIfAny()
      if let release {
        for box in release.closedBoxes { box.storeDidClose() }
        for waiter in release.waiters { waiter.resume() }
        for wake in release.closers { wake() }
      }
      return
    }
  }

  // MARK: - Processing (on the thread holding the processing token)

  @inlinable
  func process(_ work: Work, sender: StepSender?) {
    switch work {
    case .action(let action, let origin, let mark):
      guard let origin else {
        reduce(SentInput(action), mark: mark, sender: sender)
        return
      }
      process(action, origin: origin, mark: mark, sender: sender)
    case .subscribe(let box): attach(box)
    case .command(let command): run(command)
    case .expireCommands: expireCommands()
    case .cancel(let id): cancel(id: id)
    case .run(let body, _): body()
    }
  }

  /// Processes an action an effect sent: dropped if the effect was cancelled since, reduced as a
  /// replayed input if it is a replay's.
  @inlinable
  func process(_ action: Action, origin: EffectOrigin, mark: UInt64?, sender: StepSender?) {
    if origin.isCancelled { return }
    if origin.isReplay {
      machine.pointee.holder.replayInput = true
      reduce(SentInput(action), mark: mark, sender: sender)
      machine.pointee.holder.replayInput = false
      return
    }
    reduce(SentInput(action), mark: mark, sender: sender)
  }

  /// Runs the middlewares' interception, then reduces the input, or runs the architecture's
  /// ``program`` on it: reduces the inputs its step returns, then starts its later work.
  @inlinable
  func reduce(_ sent: SentInput<Action>, mark: UInt64?, sender: StepSender?) {
    var action = sent.input
    // Only if a middleware intercepts: the call copies the state for them (a retain of each
    // reference it holds). Without one, the interception is not timed either: it ends where the
    // reduction starts (``trace(sequence:reduceStart:reduced:processed:)``).
    if interceptsInputs {
      let received = tracing ? traceClock() : 0
      guard let intercepted = middlewares.intercept(action, state: machine.pointee.state) else {
        return
      }
      action = intercepted
      if received != 0 { noteInterception(received: received) }
    }
    guard let step else {
      apply(action, mark: mark, owner: nil)
      return
    }
    switch step(action, sender, machine.pointee.holder.replayInput) {
    case .none:
      break
    case .one(let input):
      guard let sender else {
        preconditionFailure("a program's step returned .one for an input without a sender")
      }
      apply(input, mark: mark, owner: sender)
    case .owned(let input, let owner):
      withExtendedLifetime(owner) { apply(input, mark: mark, owner: StepSender(owner)) }
    case .general(let inputs, let later, let found):
      // The step found its owner itself when the input came without a sender; kept alive until
      // the end of this call.
      guard let owner = sender ?? found.map(StepSender.init) else { return }
      withExtendedLifetime(found) {
        switch inputs {
        case .none: break
        case .one(let input): apply(input, mark: mark, owner: owner)
        case .many(let inputs): for input in inputs { apply(input, mark: mark, owner: owner) }
        }
        if let later, let startLater { startLater(later, action, owner) }
      }
    }
    // An input whose step reduced nothing leaves its interception's times unread.
    if tracing { noteInterception(received: 0) }
  }

  /// The clock of the timings (``StepTiming/now``), or 0 while the tracer does not trace.
  ///
  /// Out of line, with the check (``StoreTracer/isTracing``), so that the engine's processing
  /// functions are compiled the same whether a tracer is there or not. Inlined, the clock made
  /// them larger and changed how the optimizer compiled them (callgrind, W1 Reactor: +45
  /// instructions per action with no tracer); the check asked in them, +38.
  @usableFromInline @inline(never)
  func traceClock() -> UInt64 { tracer?.isTracing == true ? StepTiming.now : 0 }

  /// Whether the tracer times what begins now (``StoreTracer/isTracing``); out of line, as
  /// ``traceClock()``, and asked only when there is a tracer.
  @usableFromInline @inline(never)
  func tracerIsTracing() -> Bool { tracer?.isTracing ?? false }

  /// Notes when the input in hand was taken (`received`) and that its interception ends now, for
  /// its first reduction's timing; `received` 0 forgets them.
  ///
  /// Inlinable but never inlined, as ``trace(sequence:reduceStart:reduced:processed:)``.
  @inlinable @inline(never)
  func noteInterception(received: UInt64) {
    machine.pointee.holder.traceReceived = received
    machine.pointee.holder.traceIntercepted = received == 0 ? 0 : StepTiming.now
  }

  /// Reduces `action` in place with `reducer` on the processing thread, under the lock
  /// (``EngineStateMachine/beginReduction(describedAs:)``, the reducer,
  /// ``EngineStateMachine/endReduction()``).
  ///
  /// Then runs the middlewares' processing and notifies the subscriptions; with a tracer, hands
  /// it the timings (``StepTiming``) at the end.
  @inlinable @inline(__always)
  func apply(_ action: Action, mark: UInt64?, owner: StepSender?) {
    // Read once: the lock's calls are opaque to the optimizer, which would load it again after
    // each of them.
    let tracing = self.tracing
    var stateBefore: State?
    if middlewares.wantsStateBefore { stateBefore = machine.pointee.state }
    let description = reentrancy == .queue ? nil : "\(action)"
    // By hand, as in `drain`: the reducer's outputs are read into locals under the lock.
    storage.lock()
    guard machine.pointee.beginReduction(describedAs: description) else {
      storage.unlock()
      return
    }
    // The tracer is asked once, as the reduction begins (``traceClock()``): while it does not
    // trace, no clock is read and nothing is handed to it.
    let reduceStart = tracing ? traceClock() : 0
    let probe = machine.pointee.probe
    // Only with a probe (in tests) is the state copied before the reducer.
    let probedState = probe.map { _ in machine.pointee.state }
    #if DEBUG
    // The purity check's second reduction, from a copy of the state before, in the same window.
    var secondReduction = checksPurity ? machine.pointee.state : nil
    #endif
    if let owner, let reduceStepped {
      reduceStepped(&machine.pointee.state, action, owner)
      #if DEBUG
      if secondReduction != nil { reduceStepped(&secondReduction!, action, owner) }
      #endif
    } else {
      reducer(&machine.pointee.state, action)
      #if DEBUG
      if secondReduction != nil { reducer(&secondReduction!, action) }
      #endif
    }
    let reduced = reduceStart != 0 ? StepTiming.now : 0
    let sequence = machine.pointee.endReduction()
    let subscriptions = machine.pointee.subscriptions
    let hasParked = !machine.pointee.parked.isEmpty
    storage.unlock()
    #if DEBUG
    if let secondReduction {
      checkPurity(of: action, machine.pointee.state, secondReduction)
    }
    #endif
    if let probe, let probedState {
      probe.reduced(action, mark, probedState, machine.pointee.state)
    }
    if inputLog != nil { log(action, sequence: sequence) }
    if processesInputs {
      let record = MiddlewareRecord(
        input: action,
        stateBefore: stateBefore,
        state: machine.pointee.state,
        sequence: sequence,
        time: scheduler.now,
        dispatcher: dispatcher
      )
      middlewares.process(record)
    }
    let processed = reduceStart != 0 ? StepTiming.now : 0
    notify(subscriptions)
    if reduceStart != 0 {
      trace(sequence: sequence, reduceStart: reduceStart, reduced: reduced, processed: processed)
    }
    if hasParked { runParkedCommands() }
  }

  /// Every how many inputs gathered the holder adds them to the log while it still has work, if
  /// the log awaits inputs (``log(_:sequence:)``); a power of two.
  @inlinable static var gatheredRun: Int { 4096 }

  /// Logs `action`, reduced as input `sequence`, for the middleware that opened the log
  /// (``inputLog``): gathered by the holder, with no lock and no atomic instruction
  /// (``EngineInputLog/gathered``).
  ///
  /// The log's protocol, whole:
  /// - The holder appends each input to what it gathered.
  /// - The middleware's thread takes (``takeLog()``) what was added to the log and, if no one
  ///   holds the token, what was gathered, under the engine's lock; then the log awaits inputs
  ///   (``EngineStateMachine/logAwaited``).
  /// - A holder that runs out of work while the log awaits adds what it gathered to the log
  ///   and wakes the middleware's thread, before it gives up the token (``drain(sender:)``): a
  ///   middleware that reads a state at rest has been woken for every input reduced into it
  ///   that it has not taken. Otherwise what it gathered stays there, for the next take.
  /// - While states are asked for, the holder adds what it gathered to the log at once, with
  ///   the state (``logWithState(_:sequence:)``); and every ``gatheredRun`` inputs, if the log
  ///   awaits inputs (``wakeIfAwaited(adding:)``), so that a long run of work is seen while it
  ///   runs; otherwise the holder gathers on (the middleware has not taken since its last
  ///   wake).
  ///
  /// Appended to the log one by one, under its lock, each input took and gave up the lock, two
  /// atomic instructions that waited for the entry's writes into memory the middleware's
  /// thread had last read (`cascade-inspector-bench live-rpg`, the feedback loop's game, under
  /// perf: 7 % of the app's thread).
  @inlinable @inline(__always)
  func log(_ action: Action, sequence: UInt64) {
    // Optional chaining, not `if let inputLog`: the binding retained and released the log for
    // each input (`cascade-inspector-bench live-rpg`, under perf).
    if inputLog?.wantsStates.load(ordering: .relaxed) == true {
      logWithState(action, sequence: sequence)
      return
    }
    if inputLog?.gather(action, sequence: sequence, run: Self.gatheredRun) == true {
      wakeIfAwaited(adding: true)
    }
  }

  /// ``log(_:sequence:)`` while states are asked for: what was gathered, then `action` with the
  /// state after it, added to the log at once.
  ///
  /// Inlinable but never inlined: specialized, and out of the engine's way.
  @inlinable @inline(never)
  func logWithState(_ action: Action, sequence: UInt64) {
    inputLog?.addGathered()
    inputLog?.append(action, sequence: sequence, state: machine.pointee.state)
    wakeIfAwaited(adding: false)
  }

  /// For the holder while it still has work: if the log awaits inputs, adds what was gathered
  /// (`adding`) under the engine's lock and wakes the middleware's thread with no lock held;
  /// then lets go of what it gave back.
  @usableFromInline
  func wakeIfAwaited(adding: Bool) {
    let awaited = storage.withLock { machine in
      defer { machine.logAwaited = false }
      if adding, machine.logAwaited { inputLog?.addGathered() }
      return machine.logAwaited
    }
    if awaited { inputLog?.wake() }
    inputLog?.letGoOfGivenBackIfAny()
  }

  /// The middleware's take (``MiddlewareLog/take()``): what was added to the log and, if no one
  /// holds the token, what was gathered; the log then awaits inputs (see ``log(_:sequence:)``).
  func takeLog() -> MiddlewareLogBatch<Action, State> {
    guard let inputLog else { return MiddlewareLogBatch(entries: [], states: []) }
    // Under the engine's lock, whole: what was gathered is collected only while no one holds
    // the token, so no one adds to the log meanwhile, and what the log holds comes before it.
    var room = 0
    let (taken, copy, copiedFirst) = storage.withLock { machine in
      machine.logAwaited = true
      // What was gathered only while no one holds the token: the holder appends to it without
      // the lock, so it is not even read while someone does.
      return inputLog.take(collecting: !machine.processing, room: &room)
    }
    inputLog.makeRoom(room)
    guard !copy.isEmpty else { return taken }
    // Put together with no lock held (see `EngineInputLog.take(collecting:room:)`); each array
    // consumed, so that neither is copied as it changes.
    var batch = consume taken
    var copied = consume copy
    if copiedFirst {
      batch.entries.insert(contentsOf: copied, at: 0)
    } else {
      batch.entries.append(contentsOf: copied)
    }
    inputLog.keep(copy: &copied)
    return batch
  }

  /// Hands the tracer the timings of the input just processed (see ``apply(_:mark:owner:)``):
  /// the interception's, if this is the input's first reduction, and the delivery's end, now.
  ///
  /// Inlinable but never inlined: specialized for the architecture's state and input, it reads
  /// the machine without looking up its generic type (unspecialized, a lookup per input even
  /// while the tracer is off: `cascade-inspector-bench live-rpg`, under perf, 2 % of the
  /// store's time), and out of line it leaves ``apply(_:mark:owner:)`` as it is compiled without
  /// a tracer.
  @inlinable @inline(never)
  func trace(sequence: UInt64, reduceStart: UInt64, reduced: UInt64, processed: UInt64) {
    // The tracer did not trace when the input began, or stopped meanwhile: no timing.
    guard reduceStart != 0, reduced != 0, processed != 0 else {
      machine.pointee.holder.traceReceived = 0
      machine.pointee.holder.traceIntercepted = 0
      return
    }
    let delivered = StepTiming.now
    var received = machine.pointee.holder.traceReceived
    var intercepted = machine.pointee.holder.traceIntercepted
    if received == 0 {
      // A later reduction of the same input (a reactor's second mutation), or one without
      // interception (`reduceNowIfWindowOpen`): it starts at its reduction.
      received = reduceStart
      intercepted = reduceStart
    }
    machine.pointee.holder.traceReceived = 0
    machine.pointee.holder.traceIntercepted = 0
    let timing = StepTiming(
      sequence: sequence,
      thread: currentThreadIdentity(),
      received: received,
      intercepted: intercepted,
      reduceStart: reduceStart,
      reduced: reduced,
      processed: processed,
      delivered: delivered
    )
    tracer?.traced(timing)
  }

  /// Reports ``StoreDiagnostic/impureReducer(input:difference:)`` if `first` and `second`, two
  /// reductions of `action` from one state, differ (``PurityCheck``).
  @usableFromInline
  func checkPurity(of action: Action, _ first: State, _ second: State) {
    guard let difference = PurityCheck.difference(first, second) else { return }
    diagnostics(.impureReducer(input: "\(action)", difference: difference))
  }

  /// Runs `body` with the reduce window open on this thread, the holder (see
  /// `Store.withReduceWindow`).
  @inlinable
  func withReduceWindow(_ body: () -> Void) {
    let outer = machine.pointee.holder.reduceWindowOpen
    machine.pointee.holder.reduceWindowOpen = true
    body()
    machine.pointee.holder.reduceWindowOpen = outer
  }

  /// Reduces `input` now if this thread has the reduce window open; `false` if it has not.
  @inlinable
  func reduceNowIfWindowOpen(_ input: Action) -> Bool {
    guard isProcessingOnCurrentThread, machine.pointee.holder.reduceWindowOpen else {
      return false
    }
    apply(input, mark: nil, owner: nil)
    return true
  }

  /// Delivers the state to `subscriptions`, on the processing thread with no lock held; ends
  /// those whose subscriber is gone.
  @inlinable
  func notify(_ subscriptions: [SubscriptionBox<State>]) {
    guard !subscriptions.isEmpty else { return }
    // Read once: each read through the pointer is a copy, which retains the state's storage
    // (two atomic operations per subscriber, most of W2's cost with a selector per subscriber).
    // Only this thread, the one processing, changes the state, and not before this returns.
    let state = machine.pointee.state
    var orphans = false
    for box in subscriptions {
      if box.isOrphaned {
        orphans = true
        continue
      }
      if box.isActive { box.notify(state) }
    }
    if orphans {
      for box in storage.withLock({ $0.removeOrphans() }) { _ = box.cancel() }
    }
  }
}
