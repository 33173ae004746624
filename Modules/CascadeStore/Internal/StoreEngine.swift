public import CascadeStreams
public import Dispatch
import IssueReporting
public import Synchronization

/// The machinery behind ``Store``: the state, the queue of inputs, the subscriptions and the
/// commands in flight.
///
/// **Processing.** One thread at a time holds the *processing token* (`shared.processing`): the
/// first sender on ``StoreIsolation/callerThread``, or the store's queue. It takes work items off
/// the FIFO one by one: runs the middlewares' interception, reduces the state **in place**, runs
/// the middlewares' processing and notifies the subscriptions, then takes the next item. Inputs
/// sent meanwhile by any thread are appended to the FIFO (unbounded; nothing is dropped before
/// shutdown) and the sender returns.
///
/// **Locking.** The lock of `storage` guards the shared state. The reducer runs with it held:
/// that is what lets it mutate the state in place while other threads read `state` consistently
/// — the one piece of user code that runs under the lock, which is why it must be pure; a send
/// from inside it is detected (by thread identity, without taking the lock) and handled by the
/// reentrancy policy (queued by default). Middlewares, subscribers and commands (a parked
/// command's `canExecute(state:)` included) run with no lock held; command ids are compared
/// under it. The processing thread reads the state without the lock between reductions: it is
/// the only writer, and other threads only read.
@usableFromInline
final class StoreEngine<State: Sendable, Action: Sendable>: @unchecked Sendable {
  // Safety: `storage` guards `Shared`; `reducer`, `middlewares`, `scheduler`, `isolation`,
  // `reentrancy` and `diagnostics` are immutable; `processingThread` and `reducing` are atomics.
  @usableFromInline
  enum Work: Sendable {
    /// An input; `origin` is the task of the asynchronous command that sent it, if any; `mark`
    /// is the token it was sent with through `Store.send(_:mark:)`, which the probe reports.
    case action(Action, origin: Int?, mark: UInt64? = nil)
    case subscribe(SubscriptionBox<State>)
    case command(CommandBox<State, Action>)
    case expireCommands
    case cancel(CommandID)
    /// Forgets a cancelled task once everything it queued has been dropped.
    case forget(Int)
    /// Runs `body` on the processing thread, in order with the inputs; `dropped` runs instead
    /// if the store closed first.
    case run(@Sendable () -> Void, dropped: @Sendable () -> Void)
  }

  @usableFromInline
  struct Shared: Sendable {
    @usableFromInline init(state: State) {
      self.state = state
    }

    @usableFromInline var state: State
    @usableFromInline var queue = FIFO<Work>()
    /// What synchronous commands sent before returning: taken before `queue`, in the order sent,
    /// so each command's inputs complete its turn ahead of inputs other threads queued.
    @usableFromInline var commandQueue = FIFO<Work>()
    @usableFromInline var processing = false
    @usableFromInline var accepting = true
    @usableFromInline var closed = false
    @usableFromInline var subscriptions: [SubscriptionBox<State>] = []
    @usableFromInline var sequence: UInt64 = 0
    @usableFromInline var parked: [ParkedCommand<State, Action>] = []
    @usableFromInline var tasks: [Int: Task<Void, Never>] = [:]
    @usableFromInline var taskKeys: [Int: CommandID] = [:]
    @usableFromInline var nextTaskID = 1
    /// Tasks cancelled by id whose queued inputs must be dropped; touched only while processing.
    @usableFromInline var cancelledOrigins: Set<Int> = []
    @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Work outside the queue that may still send inputs, besides `tasks`: streams of mutations,
    /// feedback effects (``beginWork()``).
    @usableFromInline var otherWork = 0
    /// Who waits for `tasks` and `otherWork` to be gone (``waitUntilNoWork()``).
    @usableFromInline var workWaiters: [CheckedContinuation<Void, Never>] = []
    @usableFromInline var current: String?
    /// Subscriptions ended by `close()` while a thread was processing: that thread tells them
    /// when it stops, so their last delivery and the end never overlap.
    @usableFromInline var closedBoxes: [SubscriptionBox<State>] = []
    /// The observer CascadeTesting's TestStore installs; `nil` otherwise.
    @usableFromInline var probe: StoreProbe<State, Action>?
  }

  @usableFromInline let storage: LockedValue<Shared>
  @usableFromInline let reducer: @Sendable (inout State, Action) -> Void
  @usableFromInline let middlewares: MiddlewareStack<Action, State>
  /// Turns one input into the inputs to reduce now (a reactor's action into its synchronous
  /// mutations), on the processing thread; `nil` reduces each input as it is.
  ///
  /// Its second argument is the *context* the sender passed to ``submitAction(_:origin:context:)``
  /// when the sending thread processes the input itself, for as long as that thread holds the
  /// processing token; `nil` otherwise. A reactor passes itself, unretained: the sender keeps it
  /// alive while it processes, which spares a weak load per action.
  @usableFromInline let expand: (@Sendable (Action, UnsafeRawPointer?, (Action) -> Void) -> Void)?
  /// The context of the thread holding the processing token (see ``expand``); only touched by
  /// that thread, and cleared under the lock when the token is given up.
  @usableFromInline @exclusivity(unchecked) var processingContext: UnsafeRawPointer?
  /// Whether there is any middleware (checked on every input without touching the array).
  @usableFromInline let hasMiddlewares: Bool
  @usableFromInline let scheduler: any Scheduler
  @usableFromInline let isolation: StoreIsolation
  @usableFromInline let reentrancy: ReentrancyPolicy
  @usableFromInline let diagnostics: @Sendable (StoreDiagnostic) -> Void
  /// The resource account current where the store was made: its command tasks and waiting
  /// commands are charged to it, whichever thread starts them, and a queue that processes the
  /// store's inputs runs with it current.
  @usableFromInline let account = Resources.currentAccount
  let timers = CompositeDisposable()
  /// The subscription index, by the key path of each collection.
  ///
  /// Element subscriptions are grouped by collection (``ElementGroup``). Only touched by the
  /// processing thread.
  @usableFromInline @exclusivity(unchecked) var elementGroups: [AnyKeyPath: AnyObject] = [:]
  /// Whether a synchronous command is executing on the processing thread: what it sends is
  /// goes to `commandQueue` instead of `queue` (processing thread only).
  @usableFromInline @exclusivity(unchecked) var collectingCommandInputs = false
  /// Set at the end of `init` when there are middlewares, never changed after.
  @usableFromInline @exclusivity(unchecked) var dispatcherStorage: MiddlewareDispatcher<Action>?
  /// The identity of the thread holding the processing token, or 0.
  @usableFromInline let processingThread = Atomic<UInt>(0)
  /// Whether the processing thread is inside the reducer (and so holds the lock).
  @usableFromInline let reducing = Atomic<Bool>(false)

  init(
    state: State,
    reducer: @escaping @Sendable (inout State, Action) -> Void,
    middlewares: [any Middleware<Action, State>],
    scheduler: any Scheduler,
    isolation: StoreIsolation,
    reentrancy: ReentrancyPolicy,
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)?,
    expand: (@Sendable (Action, UnsafeRawPointer?, (Action) -> Void) -> Void)? = nil
  ) {
    storage = LockedValue(Shared(state: state))
    self.expand = expand
    self.reducer = reducer
    self.middlewares = MiddlewareStack(middlewares)
    hasMiddlewares = !middlewares.isEmpty
    self.scheduler = scheduler
    self.isolation = isolation
    self.reentrancy = reentrancy
    self.diagnostics = diagnostics ?? StoreEngine.reportDiagnostic
    if hasMiddlewares {
      dispatcherStorage = MiddlewareDispatcher { [weak self] action in
        self?.submit(.action(action, origin: nil))
      }
    }
  }

  static func reportDiagnostic(_ diagnostic: StoreDiagnostic) {
    switch diagnostic {
    case .lateInput: reportIssue(diagnostic.description, severity: .warning)
    default: reportIssue(diagnostic.description)
    }
  }

  // MARK: - Reading

  var state: State {
    if reducing.load(ordering: .relaxed),
      processingThread.load(ordering: .relaxed) == currentThreadIdentity()
    {
      preconditionFailure(
        "Store.state was read from inside the reducer, which receives the state as inout"
      )
    }
    return storage.withLock { $0.state }
  }

  // MARK: - Submitting work

  /// Submits `work`, processing it now if no one else is processing.
  @inlinable
  func submit(_ work: Work) {
    let me = currentThreadIdentity()
    if processingThread.load(ordering: .relaxed) == me {
      submitReentrant(work)
      return
    }
    let shared = storage.unsafeValue
    storage.lock()
    guard shared.pointee.accepting || Self.isInternal(work) else {
      storage.unlock()
      dropLate(work)
      return
    }
    if shared.pointee.processing {
      shared.pointee.queue.append(work)
      storage.unlock()
      return
    }
    let queue: DispatchQueue?
    switch isolation {
    case .callerThread: queue = nil
    case .queue(let own): queue = own
    case .mainQueue: queue = MainScheduler.isOnMainQueue ? nil : .main
    }
    shared.pointee.processing = true
    if let queue {
      shared.pointee.queue.append(work)
      storage.unlock()
      queue.async { [self] in
        processingThread.store(currentThreadIdentity(), ordering: .relaxed)
        if let account {
          account.withCurrent { drain() }
        } else {
          drain()
        }
      }
    } else {
      processingThread.store(me, ordering: .relaxed)
      storage.unlock()
      process(work)
      drain()
    }
  }

  /// Submits an action: ``submit(_:)`` without boxing the action into a work item when the
  /// sending thread can process it at once (the common, uncontended case).
  @inlinable
  func submitAction(_ action: Action, origin: Int?, context: UnsafeRawPointer? = nil) {
    guard origin == nil, case .callerThread = isolation else {
      submit(.action(action, origin: origin))
      return
    }
    let me = currentThreadIdentity()
    if processingThread.load(ordering: .relaxed) == me {
      submitReentrant(.action(action, origin: nil))
      return
    }
    let shared = storage.unsafeValue
    storage.lock()
    guard shared.pointee.accepting, !shared.pointee.processing else {
      // Another thread is processing, or the store is closed: the general path decides.
      storage.unlock()
      submit(.action(action, origin: nil))
      return
    }
    shared.pointee.processing = true
    processingThread.store(me, ordering: .relaxed)
    processingContext = context
    storage.unlock()
    reduce(action)
    drain()
  }

  @inlinable
  static func isInternal(_ work: Work) -> Bool {
    switch work {
    case .expireCommands, .forget: true
    default: false
    }
  }

  /// Work sent from inside the store's own processing, on the processing thread.
  @inlinable
  func submitReentrant(_ work: Work) {
    if reentrancy != .queue, case .action = work {
      reportReentrant(work)
      if reentrancy == .reject { return }
    }
    if reducing.load(ordering: .relaxed) {
      // Inside the reducer this thread already holds the lock.
      let shared = storage.unsafeValue
      if shared.pointee.accepting || Self.isInternal(work) {
        shared.pointee.queue.append(work)
      }
    } else {
      let shared = storage.unsafeValue
      storage.lock()
      let accepted = shared.pointee.accepting || Self.isInternal(work)
      if accepted {
        if collectingCommandInputs {
          shared.pointee.commandQueue.append(work)
        } else {
          shared.pointee.queue.append(work)
        }
      }
      storage.unlock()
      if !accepted { dropLate(work) }
    }
  }

  /// Reports a reentrant send under the report and reject policies.
  @usableFromInline
  func reportReentrant(_ work: Work) {
    guard case .action(let action, _, _) = work else { return }
    let during = storage.withLockIfNotReducing(reducing) { $0.current } ?? "?"
    let rejected = reentrancy == .reject
    diagnostics(.reentrant(input: "\(action)", during: during, rejected: rejected))
  }

  @usableFromInline
  func dropLate(_ work: Work) {
    switch work {
    case .action(let action, _, _):
      diagnostics(.lateInput("\(action)", origin: CommandOrigin.name))
    case .run(_, let dropped):
      dropped()
    default:
      break
    }
  }

  /// Processes queued work until the queue is empty, then gives up the processing token.
  @inlinable
  func drain() {
    let shared = storage.unsafeValue
    while true {
      storage.lock()
      guard
        !shared.pointee.closed,
        !shared.pointee.commandQueue.isEmpty || !shared.pointee.queue.isEmpty
      else {
        shared.pointee.processing = false
        processingThread.store(0, ordering: .relaxed)
        processingContext = nil
        if shared.pointee.idleWaiters.isEmpty && shared.pointee.closedBoxes.isEmpty {
          storage.unlock()
          return
        }
        let waiters = shared.pointee.idleWaiters
        let closedBoxes = shared.pointee.closedBoxes
        shared.pointee.idleWaiters = []
        shared.pointee.closedBoxes = []
        storage.unlock()
        for box in closedBoxes { box.storeDidClose() }
        for waiter in waiters { waiter.resume() }
        return
      }
      let next =
        shared.pointee.commandQueue.isEmpty
        ? shared.pointee.queue.removeFirst() : shared.pointee.commandQueue.removeFirst()
      storage.unlock()
      process(next)
    }
  }

  // MARK: - Processing (on the thread holding the processing token)

  @inlinable
  func process(_ work: Work) {
    switch work {
    case .action(let action, let origin, let mark):
      if let origin, storage.unsafeValue.pointee.cancelledOrigins.contains(origin) { return }
      reduce(action, mark: mark)
    case .subscribe(let box): attach(box)
    case .command(let command): run(command)
    case .expireCommands: expireCommands()
    case .cancel(let id): cancel(id: id)
    case .forget(let origin): storage.withLock { _ = $0.cancelledOrigins.remove(origin) }
    case .run(let body, _): body()
    }
  }

  @inlinable
  func reduce(_ input: Action, mark: UInt64? = nil) {
    var action = input
    if hasMiddlewares {
      guard
        let intercepted = middlewares.intercept(action, state: storage.unsafeValue.pointee.state)
      else {
        return
      }
      action = intercepted
    }
    if let expand {
      expand(action, processingContext) { apply($0, mark: mark) }
    } else {
      apply(action, mark: mark)
    }
  }

  /// Reduces `action` in place on the processing thread.
  ///
  /// Then runs the middlewares' processing and notifies the subscriptions.
  @inlinable
  func apply(_ action: Action, mark: UInt64?) {
    let shared = storage.unsafeValue
    var stateBefore: State?
    if hasMiddlewares && middlewares.wantsStateBefore { stateBefore = shared.pointee.state }
    let description = reentrancy == .queue ? nil : "\(action)"
    storage.lock()
    if shared.pointee.closed {
      storage.unlock()
      return
    }
    if description != nil { shared.pointee.current = description }
    let probe = shared.pointee.probe
    // Only with a probe (in tests) is the state copied before the reducer.
    let probedState = probe.map { _ in shared.pointee.state }
    reducing.store(true, ordering: .relaxed)
    reducer(&shared.pointee.state, action)
    reducing.store(false, ordering: .relaxed)
    shared.pointee.sequence &+= 1
    let sequence = shared.pointee.sequence
    let subscriptions = shared.pointee.subscriptions
    let hasParked = !shared.pointee.parked.isEmpty
    storage.unlock()

    if let probe, let probedState {
      probe.reduced(action, mark, probedState, shared.pointee.state)
    }
    if hasMiddlewares {
      let record = MiddlewareRecord(
        input: action,
        stateBefore: stateBefore,
        state: shared.pointee.state,
        sequence: sequence,
        time: scheduler.now,
        dispatcher: dispatcher
      )
      middlewares.process(record)
    }
    notify(subscriptions)
    if hasParked { runParkedCommands() }
  }

  @inlinable
  func notify(_ subscriptions: [SubscriptionBox<State>]) {
    guard !subscriptions.isEmpty else { return }
    let shared = storage.unsafeValue
    var orphans = false
    for box in subscriptions {
      if box.isOrphaned {
        orphans = true
        continue
      }
      if box.isActive { box.notify(shared.pointee.state) }
    }
    if orphans {
      storage.withLock { shared in
        shared.subscriptions.removeAll { box in
          guard box.isOrphaned else { return false }
          box.cancel()
          return true
        }
      }
    }
  }

  /// Subscribes `entry` to the element at `index` of the collection at `path`, through the
  /// collection's ``ElementGroup``.
  @inlinable
  func subscribe<Elements: RandomAccessCollection & Sendable>(
    _ path: any KeyPath<State, Elements> & Sendable,
    at index: Elements.Index,
    entry: ElementEntry<Elements.Element>
  ) where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    submit(
      .run(
        { [self] in
          group(for: path).join(entry, at: index, state: storage.unsafeValue.pointee.state)
        },
        dropped: { if entry.cancel() { entry.onClose?() } }
      )
    )
  }

  /// The group of `path`, created and attached on first use; on the processing thread.
  @inlinable
  func group<Elements: RandomAccessCollection & Sendable>(
    for path: any KeyPath<State, Elements> & Sendable
  ) -> ElementGroup<State, Elements>
  where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    if let existing = elementGroups[path] as? ElementGroup<State, Elements> { return existing }
    let group = ElementGroup<State, Elements>(path: path)
    let box = SubscriptionBox<State>(
      owner: nil,
      orphaned: nil,
      onClose: { group.storeDidClose() },
      body: { _, state, initial in
        // Joining delivers each entry's first value; the group itself has nothing to send.
        if !initial { group.notify(state) }
      }
    )
    group.box = box
    elementGroups[path] = group
    attach(box)
    return group
  }

  /// Ends `entry` and removes it from its group; a group left empty leaves the store.
  @inlinable
  func leave<Elements: RandomAccessCollection & Sendable>(
    _ entry: ElementEntry<Elements.Element>,
    of path: any KeyPath<State, Elements> & Sendable
  ) where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    guard entry.cancel() else { return }
    submit(
      .run(
        { [self] in
          guard let group = elementGroups[path] as? ElementGroup<State, Elements>,
            group.entryEnded()
          else { return }
          elementGroups[path] = nil
          if let box = group.box { detach(box) }
          group.box = nil  // The box's body holds the group: break the cycle.
        },
        dropped: {}
      )
    )
  }

  @usableFromInline
  func attach(_ box: SubscriptionBox<State>) {
    let attached = storage.withLock { shared -> Bool in
      guard !shared.closed, box.isActive else { return false }
      shared.subscriptions.append(box)
      return true
    }
    if attached { box.notifyInitial(storage.unsafeValue.pointee.state) }
  }

  @usableFromInline
  func detach(_ box: SubscriptionBox<State>) {
    guard box.cancel() else { return }
    storage.withLock { shared in
      shared.subscriptions.removeAll { $0 === box }
    }
  }

  /// Ends every subscription serving `owner`.
  func detach(owner: ObjectIdentifier) {
    let removed = storage.withLock { shared -> [SubscriptionBox<State>] in
      var removed: [SubscriptionBox<State>] = []
      shared.subscriptions.removeAll { box in
        guard box.owner == owner else { return false }
        removed.append(box)
        return true
      }
      return removed
    }
    for box in removed { box.cancel() }
  }

  var subscriptionCount: Int { storage.withLock { $0.subscriptions.count } }

  // MARK: - Commands

  var handle: Store<State, Action> { Store(engine: self, origin: nil) }

  /// What middlewares send further inputs with: made once (with a weak reference to the engine)
  /// when the engine has middlewares.
  @usableFromInline
  var dispatcher: MiddlewareDispatcher<Action> { dispatcherStorage ?? .none }

  @usableFromInline
  func run(_ command: CommandBox<State, Action>) {
    let state = storage.unsafeValue.pointee.state
    if let id = command.id, command.cancelInFlight { cancel(id: id) }
    if command.canExecute(state) {
      execute(command, state: state)
      return
    }
    let deadline = scheduler.now.advanced(by: command.expiration)
    storage.withLock { $0.parked.append(ParkedCommand(command: command, deadline: deadline)) }
    _ = Resources.increment(charging: account)
    let timer = scheduler.schedule(after: command.expiration) { [weak self] in
      self?.submit(.expireCommands)
    }
    timers.insert(timer)
  }

  private func execute(_ command: CommandBox<State, Action>, state: State) {
    switch command.work {
    case .sync(let body):
      // What the command sends before it returns completes its turn: it is processed ahead of
      // the inputs queued meanwhile (otherwise a command queued behind this one would run
      // against a state that misses this one's effects), after what earlier commands sent.
      collectingCommandInputs = true
      body(state, handle)
      collectingCommandInputs = false
    case .async(let body):
      startTask(named: command.name, key: command.id) { handle in try await body(state, handle) }
    }
  }

  /// Starts `body` in a task the store tracks, cancels on shutdown, and, when it has a `key`,
  /// cancels with `cancel(id:)`.
  ///
  /// `body` gets a handle whose inputs are tagged with the task, so that inputs it queued before a
  /// cancellation are dropped with it.
  func startTask(
    named name: String,
    key: CommandID?,
    _ body: @escaping @Sendable (Store<State, Action>) async throws -> Void
  ) {
    let gate = Gate()
    let started = storage.withLock { shared -> (id: Int, probe: StoreProbe<State, Action>?)? in
      guard !shared.closed else { return nil }
      let id = shared.nextTaskID
      shared.nextTaskID += 1
      let handle = Store(engine: self, origin: id)
      let task = Task { [weak self] in
        await gate.wait()
        do {
          try await CommandOrigin.$name.withValue(name) { try await body(handle) }
        } catch is CancellationError {
          // Cancellation is not failure.
        } catch {
          if !Task.isCancelled { self?.diagnostics(.commandFailed(command: name, error: error)) }
        }
        self?.finishTask(id)
      }
      shared.tasks[id] = task
      if let key { shared.taskKeys[id] = key }
      return (id, shared.probe)
    }
    guard let started else { return }
    _ = Resources.increment(charging: account)
    started.probe?.commandStarted(started.id, name)
    gate.open()
  }

  private func finishTask(_ id: Int) {
    let (removed, cancelled, probe, waiters) = storage.withLock { shared in
      shared.taskKeys[id] = nil
      let removed = shared.tasks.removeValue(forKey: id)
      return (
        removed, shared.cancelledOrigins.contains(id), shared.probe,
        removed != nil ? Self.takeWorkWaitersIfIdle(&shared) : []
      )
    }
    if removed != nil { Resources.decrement(charging: account) }
    probe?.commandFinished(id)
    if cancelled { submit(.forget(id)) }
    for waiter in waiters { waiter.resume() }
  }

  /// Counts one more piece of work that may send inputs outside a task the store started.
  ///
  /// Pair with exactly one ``endWork()``.
  @usableFromInline
  func beginWork() {
    storage.withLock { $0.otherWork += 1 }
  }

  /// Counts one piece of work from ``beginWork()`` as ended.
  @usableFromInline
  func endWork() {
    let waiters = storage.withLock { shared in
      shared.otherWork -= 1
      return Self.takeWorkWaitersIfIdle(&shared)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// The waiters for the end of all work, taken out if no work is left (under the lock).
  private static func takeWorkWaitersIfIdle(
    _ shared: inout Shared
  ) -> [CheckedContinuation<Void, Never>] {
    guard shared.tasks.isEmpty, shared.otherWork == 0, !shared.workWaiters.isEmpty else {
      return []
    }
    defer { shared.workWaiters = [] }
    return shared.workWaiters
  }

  /// Waits until no task the store started and no work from ``beginWork()`` is left (or the
  /// store closed).
  func waitUntilNoWork() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = storage.withLock { shared -> Bool in
        if shared.closed || (shared.tasks.isEmpty && shared.otherWork == 0) { return true }
        shared.workWaiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// Waits until the store is quiescent: no work in flight that may still send inputs, and
  /// every input sent so far processed.
  func finish() async {
    // The processing thread cannot wait for its own work to end.
    if processingThread.load(ordering: .relaxed) == currentThreadIdentity() { return }
    while true {
      await waitUntilNoWork()
      await waitUntilIdle()
      let quiescent = storage.withLock { shared in
        shared.closed
          || (shared.tasks.isEmpty && shared.otherWork == 0 && !shared.processing
            && shared.queue.isEmpty && shared.commandQueue.isEmpty)
      }
      if quiescent { return }
    }
  }

  /// Registers an origin for work that is not a task (a stream), cancellable by `key`: inputs
  /// sent through a handle with this origin are dropped once `cancel(id:)` cancels it.
  @usableFromInline
  func beginOrigin(key: CommandID) -> Int {
    storage.withLock { shared in
      let id = shared.nextTaskID
      shared.nextTaskID += 1
      shared.taskKeys[id] = key
      return id
    }
  }

  /// Ends an origin from `beginOrigin(key:)`; a cancelled one is forgotten once what it queued
  /// has been dropped.
  @usableFromInline
  func endOrigin(_ id: Int) {
    let cancelled = storage.withLock { shared in
      shared.taskKeys[id] = nil
      return shared.cancelledOrigins.contains(id)
    }
    if cancelled { submit(.forget(id)) }
  }

  /// Cancels the tasks started under `id` and the parked commands with that id.
  ///
  /// What the tasks already queued is dropped. Runs while processing, so it is a barrier in the
  /// order of inputs.
  @usableFromInline
  func cancel(id: CommandID) {
    let (tasks, parked) = storage.withLock { shared in
      var tasks: [Task<Void, Never>] = []
      for (task, key) in shared.taskKeys where key == id {
        shared.cancelledOrigins.insert(task)
        if let handle = shared.tasks[task] { tasks.append(handle) }
      }
      var parked = 0
      shared.parked.removeAll { command in
        guard command.command.id == id else { return false }
        parked += 1
        return true
      }
      return (tasks, parked)
    }
    for task in tasks { task.cancel() }
    for _ in 0..<parked { Resources.decrement(charging: account) }
  }

  /// Runs the parked commands that the state now allows.
  ///
  /// `canExecute(state:)` is the user's code, so it is asked without the lock. Only the
  /// processing thread (this one) adds or removes parked commands, except `close()`, which
  /// empties the list from any thread: if the list changed meanwhile, the store closed and
  /// nothing runs.
  @usableFromInline
  func runParkedCommands() {
    let shared = storage.unsafeValue
    let state = shared.pointee.state
    let parked = storage.withLock { $0.parked }
    let allowed = parked.map { $0.command.canExecute(state) }
    guard allowed.contains(true) else { return }
    let ready = storage.withLock { shared -> [ParkedCommand<State, Action>] in
      guard shared.parked.count == parked.count else { return [] }
      var ready: [ParkedCommand<State, Action>] = []
      var waiting: [ParkedCommand<State, Action>] = []
      for (command, isAllowed) in zip(shared.parked, allowed) {
        if isAllowed { ready.append(command) } else { waiting.append(command) }
      }
      shared.parked = waiting
      return ready
    }
    for parked in ready {
      Resources.decrement(charging: account)
      execute(parked.command, state: state)
    }
  }

  @usableFromInline
  func expireCommands() {
    let now = scheduler.now
    let state = storage.unsafeValue.pointee.state
    let expired = storage.withLock { shared -> [ParkedCommand<State, Action>] in
      var expired: [ParkedCommand<State, Action>] = []
      shared.parked.removeAll { parked in
        guard parked.deadline <= now else { return false }
        expired.append(parked)
        return true
      }
      return expired
    }
    for parked in expired {
      Resources.decrement(charging: account)
      parked.command.didExpire(state, handle)
    }
  }

  var parkedCount: Int { storage.withLock { $0.parked.count } }
  var inFlightCount: Int { storage.withLock { $0.tasks.count + $0.otherWork } }

  // MARK: - Lifecycle

  /// Stops accepting inputs, ends or awaits the commands, drains the queue and closes.
  func shutdown(cancellingCommands: Bool) async {
    if cancellingCommands {
      let tasks = storage.withLock { shared -> [Task<Void, Never>] in
        shared.accepting = false
        return Array(shared.tasks.values)
      }
      for task in tasks { task.cancel() }
      for task in tasks { await task.value }
    } else {
      while true {
        let tasks = storage.withLock { Array($0.tasks.values) }
        if tasks.isEmpty { break }
        for task in tasks { await task.value }
      }
      storage.withLock { $0.accepting = false }
    }
    await waitUntilIdle()
    close()
  }

  /// Waits until no one is processing and the queue is empty.
  func waitUntilIdle() async {
    if processingThread.load(ordering: .relaxed) == currentThreadIdentity() { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = storage.withLock { shared -> Bool in
        if !shared.processing && shared.queue.isEmpty && shared.commandQueue.isEmpty {
          return true
        }
        shared.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  /// Ends everything at once: no more input, no more delivery, commands cancelled.
  func close() {
    var droppedRuns: [@Sendable () -> Void] = []
    let (subscriptions, tasks, parked, waiters, tellNow) = storage.withLock { shared in
      shared.accepting = false
      shared.closed = true
      while let work = shared.commandQueue.popFirst() ?? shared.queue.popFirst() {
        if case .run(_, let dropped) = work { droppedRuns.append(dropped) }
      }
      defer {
        shared.subscriptions = []
        shared.tasks = [:]
        shared.parked = []
        shared.idleWaiters = []
        shared.workWaiters = []
      }
      let tellNow = !shared.processing
      if !tellNow { shared.closedBoxes = shared.subscriptions }
      return (
        shared.subscriptions, Array(shared.tasks.values), shared.parked,
        shared.idleWaiters + shared.workWaiters, tellNow
      )
    }
    timers.dispose()
    for box in subscriptions where box.cancel() && tellNow { box.storeDidClose() }
    for task in tasks {
      task.cancel()
      Resources.decrement(charging: account)
    }
    for _ in parked { Resources.decrement(charging: account) }
    for dropped in droppedRuns { dropped() }
    for waiter in waiters { waiter.resume() }
  }

  var isClosed: Bool { storage.withLock { $0.closed } }
}

/// Holds a task back until its bookkeeping is recorded.
private final class Gate: Sendable {
  private let opened = LockedValue<(Bool, CheckedContinuation<Void, Never>?)>((false, nil))

  func wait() async {
    await withCheckedContinuation { continuation in
      let resumeNow = opened.withLock { state -> Bool in
        if state.0 { return true }
        state.1 = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  func open() {
    let continuation = opened.withLock { state -> CheckedContinuation<Void, Never>? in
      state.0 = true
      defer { state.1 = nil }
      return state.1
    }
    continuation?.resume()
  }
}

extension LockedValue {
  /// Runs `body` under the lock, unless the processing thread is inside the reducer and already
  /// holds it, in which case it runs without taking it again.
  func withLockIfNotReducing<T>(_ reducing: borrowing Atomic<Bool>, _ body: (inout Value) -> T) -> T
  {
    if reducing.load(ordering: .relaxed) { return body(&unsafeValue.pointee) }
    return withLock(body)
  }
}
