public import CascadeStreams
public import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A number identifying the calling thread, for detecting reentrant calls without a lock.
@usableFromInline
package func currentThreadIdentity() -> UInt {
  #if canImport(Darwin)
  UInt(bitPattern: pthread_self())
  #else
  UInt(pthread_self())
  #endif
}

/// Who holds a store engine's processing token (see ``EngineStateMachine``).
@usableFromInline
enum EngineToken: Sendable, Equatable {
  /// No one is processing: the next submitter takes the token.
  case idle
  /// A thread is processing (its ``currentThreadIdentity()``), or, with 0, the token was handed
  /// to the store's queue, whose job has not begun; inputs sent meanwhile are queued.
  case held(by: UInt)
}

/// Where a store is in its life (see ``EngineStateMachine``).
@usableFromInline
enum EngineLifecycle: Sendable {
  case open
  case draining
  case closed
}

/// What only the thread holding the processing token reads and writes: where it is in the input
/// in hand.
///
/// The holder reads these without the lock (and writes them with or without it); no other thread
/// touches them, so they need neither.
@usableFromInline
struct HolderState: Sendable {
  /// Whether the holder is inside the reducer (and so holds the lock).
  @usableFromInline var reducing = false
  /// Whether the input in hand comes from a replay (the architecture's step starts no work).
  @usableFromInline var replayInput = false
  /// Whether inputs sent now by the holder are reduced at once rather than queued (see
  /// `Store.withReduceWindow(_:)`).
  @usableFromInline var reduceWindowOpen = false
  /// Whether a synchronous command is executing: what it sends goes to `commandQueue`.
  @usableFromInline var collectingCommandInputs = false
  /// With a tracer: when the input in hand was taken and its interception ended (``StepTiming``),
  /// for its first reduction; 0 once that reduction has read them.
  @usableFromInline var traceReceived: UInt64 = 0
  @usableFromInline var traceIntercepted: UInt64 = 0

  @usableFromInline init() {}
}

/// The whole protocol of a store engine, as one state machine: who processes, what is queued,
/// where the store is in its life, the replays and the effects in flight.
///
/// ``StoreEngine`` takes its lock, calls one transition (a mutating method below) and acts on
/// what it returns — process, queue for its queue, drop, deliver, resume waiters, stop effects,
/// end subscriptions — once the lock is given up, so no user code and no continuation runs under
/// the lock (the reducer, run between ``beginReduction(describedAs:)`` and ``endReduction()``, is
/// the one exception).
///
/// ```
///   token:      idle ──admit: process / takeTokenIfIdle──▶ held(by: thread) ──next: none left──▶ idle
///               idle ──admit: handOver──▶ held(by: 0) ──beginHolding(on: queue thread)──▶ held(by: thread)
///               held: admit queues; admitReentrant queues (a command's inputs in commandQueue)
///               held: next ──▶ .process (a command's inputs first) ──▶ process ──▶ next ─┐
///                       ▲────────────────────────────────────────────────────────────────┘
///
///   lifecycle:  open ──stopAccepting (shutdown)──▶ draining ──effects ended, queue processed──▶ closed
///                 └──────────────────close(by:), the owner released────────────────────────▶ closed
///
///   replay:     beginReplay ──▶ replaying > 0: only the replay's inputs are admitted, no effect
///               starts (both counted) ──endReplay──▶ the counts, reset when the last one ends
///
///   effects:    startEffect ──▶ running ──cancel(key:) / cancel(effect:) / close──▶ cancelled
///                                 │                                                  │
///                                 └───────────end (returned, completed, disposed)────┴──▶ gone
/// ```
///
/// - **open**: every input is accepted (``admit(_:by:handOver:)``, ``admitReentrant(_:)``).
/// - **draining**: `shutdown()` stopped accepting inputs from outside; the engine's own work
///   (expiring parked commands) is still accepted, and what is queued is processed.
/// - **closed**: nothing is accepted or delivered; the queues were emptied (their `run` work
///   told it was dropped), effects stopped, waiters resumed, subscriptions ended — at once, or, if
///   a thread was processing, by that thread when it gives up the token (`closedBoxes`). A thread
///   that closes while another processes waits until then (``close(by:waker:)``, woken by
///   ``releaseToken()``), so no delivery runs after `close()` returns; the holder closing the store
///   itself never waits.
/// - A **cancelled** effect's inputs are dropped when processed (its ``EffectOrigin`` is marked),
///   whether queued before the cancellation or sent after it.
///
/// **Reentrancy.** A store's own processing (a subscriber, middleware, command or the reducer)
/// may send to it. The sender must not take the lock again — inside the reducer it holds it —
/// so it has to know, without the lock, whether it is the holder: the machine publishes the
/// holder's thread in ``holderThread``, an atomic written only by the transitions that change
/// the token (``isHeld(by:)`` reads it). That is the one field read without the lock by any
/// thread; ``holder`` is read without it by the holder only.
///
/// The transitions are tested one by one, and the token's over every sequence of events up to
/// a length, with no threads, in `EngineStateMachineTests` and `EffectRegistryTests`.
@usableFromInline
struct EngineStateMachine<State: Sendable, Action: Sendable>: ~Copyable, Sendable {
  @usableFromInline typealias Work = EngineWork<State, Action>
  @usableFromInline typealias Token = EngineToken
  @usableFromInline typealias Lifecycle = EngineLifecycle

  @usableFromInline init(state: State) {
    self.state = state
  }

  @usableFromInline var state: State
  @usableFromInline var queue = WorkQueue<State, Action>()
  /// What synchronous commands sent before returning: taken before `queue`, in the order sent,
  /// so each command's inputs complete its turn ahead of inputs other threads queued.
  @usableFromInline var commandQueue = FIFO<Work>()
  @usableFromInline var token = Token.idle
  /// The thread holding the token, or 0, published for reads without the lock.
  ///
  /// It is the token's thread, written only where the token changes (see "Reentrancy" above).
  @usableFromInline let holderThread = Atomic<UInt>(0)
  /// The holder's own state (read and written by the token holder only).
  @usableFromInline var holder = HolderState()
  @usableFromInline var lifecycle = Lifecycle.open
  @usableFromInline var subscriptions: [SubscriptionBox<State>] = []
  @usableFromInline var sequence: UInt64 = 0
  @usableFromInline var parked: [ParkedCommand<State, Action>] = []
  /// The effects in flight (commands' tasks, mutation streams, feedback effects), and which
  /// were cancelled.
  @usableFromInline var effects = EffectRegistry()
  @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// Who waits for the effects to be gone (``awaitNoEffects(_:)``).
  @usableFromInline var workWaiters: [CheckedContinuation<Void, Never>] = []
  /// A description of the input being reduced, under the report and reject reentrancy policies.
  @usableFromInline var current: String?
  /// Subscriptions ended by `close()` while a thread was processing: that thread tells them
  /// when it stops, so their last delivery and the end never overlap.
  @usableFromInline var closedBoxes: [SubscriptionBox<State>] = []
  /// Threads that closed the store while another thread was processing, waiting for that thread
  /// to finish the input in hand: woken when it gives up the token.
  @usableFromInline var closers: [@Sendable () -> Void] = []
  /// The observer CascadeTesting's TestStore installs; `nil` otherwise.
  @usableFromInline var probe: StoreProbe<State, Action>?
  /// The replays in progress (``beginReplay()``): while there is one, only its inputs are
  /// accepted and no effect starts.
  @usableFromInline var replaying = 0
  /// What the replays in progress left out: inputs from elsewhere, effects not started.
  @usableFromInline var replayDropped = 0
  @usableFromInline var replaySkippedEffects = 0
  /// Whether the middleware took from the engine's log since it was last woken, or has not been
  /// woken yet.
  ///
  /// If so, the holder adds what it gathered (``EngineInputLog/gathered``) to the log and wakes
  /// the middleware before it gives up the token (``StoreEngine/log(_:sequence:)``). Under the
  /// lock.
  @usableFromInline var logAwaited = true
}

// MARK: - The token

extension EngineStateMachine {
  /// Whether a thread is processing (or the token was handed to the store's queue).
  @inlinable var processing: Bool { token != .idle }
  /// Whether inputs from outside are accepted.
  @inlinable var accepting: Bool {
    if case .open = lifecycle { return true }
    return false
  }
  /// Whether the store has closed.
  @inlinable var closed: Bool {
    if case .closed = lifecycle { return true }
    return false
  }

  /// Whether `thread` holds the token; without the lock, from any thread (an atomic load).
  @inlinable
  func isHeld(by thread: UInt) -> Bool {
    holderThread.load(ordering: .relaxed) == thread
  }

  @inlinable
  mutating func setToken(_ token: Token) {
    self.token = token
    switch token {
    case .idle: holderThread.store(0, ordering: .relaxed)
    case .held(let thread): holderThread.store(thread, ordering: .relaxed)
    }
  }

  /// Whether `work` may still be queued: everything while open (during a replay, everything but
  /// inputs from elsewhere and commands), the engine's own bookkeeping while draining, nothing
  /// once closed.
  @inlinable
  func accepts(_ work: Work) -> Bool {
    switch lifecycle {
    case .open: replaying == 0 || work.isAcceptedDuringReplay
    case .draining: work.isInternal
    case .closed: false
    }
  }

  /// What ``admit(_:by:handOver:)`` decided for a submitted work item.
  @usableFromInline
  enum Admission: Equatable {
    /// Not accepted (the store is draining or closed): the engine drops it.
    case refused
    /// Not accepted because a replay is in progress: counted in ``replayDropped`` or
    /// ``replaySkippedEffects``, and dropped quietly.
    case leftOutOfReplay
    /// Someone is processing: it was queued, and will be processed in order.
    case queued
    /// idle → held(by: the submitter): the submitter processes it now, then ``next()``.
    case process
    /// idle → held(by: 0): it was queued, and the engine starts its queue's job, which
    /// begins with ``beginHolding(on:)``.
    case handOver
  }

  /// A submission from a thread that does not hold the token.
  ///
  /// `handOver`: whether the submitter may not process itself (the store processes on a queue
  /// the submitter is not on).
  @inlinable
  mutating func admit(_ work: Work, by thread: UInt, handOver: Bool) -> Admission {
    guard accepts(work) else { return refusedForReplay(work) ? .leftOutOfReplay : .refused }
    if processing {
      queue.append(work)
      return .queued
    }
    if handOver {
      queue.append(work)
      setToken(.held(by: 0))
      return .handOver
    }
    setToken(.held(by: thread))
    return .process
  }

  /// idle → held(by: `thread`) for an action the submitter processes at once: only while open,
  /// not replaying and idle (otherwise the general ``admit(_:by:handOver:)`` decides).
  @inlinable
  mutating func takeTokenIfIdle(by thread: UInt) -> Bool {
    guard accepting, replaying == 0, !processing else { return false }
    setToken(.held(by: thread))
    return true
  }

  /// held(by: 0) → held(by: `thread`): the store's queue begins the job the token was handed
  /// to.
  @inlinable
  mutating func beginHolding(on thread: UInt) {
    precondition(token == .held(by: 0), "beginHolding(on:) without the token handed over")
    setToken(.held(by: thread))
  }

  /// A submission from the holder itself (a subscriber, middleware or command of the store):
  /// queued if accepted, in `commandQueue` when a synchronous command sent it; `false` if
  /// refused because the store is draining or closed (left out of a replay counts as handled).
  @inlinable
  mutating func admitReentrant(_ work: Work) -> Bool {
    guard accepts(work) else { return refusedForReplay(work) }
    if holder.collectingCommandInputs {
      commandQueue.append(work)
    } else {
      queue.append(work)
    }
    return true
  }

  /// Whether the holder has work to take (``takeNext()``): none once the store closed.
  @inlinable
  var hasWork: Bool {
    !closed && !(commandQueue.isEmpty && queue.isEmpty)
  }

  /// An action without a mark sent by the holder itself: ``admitReentrant(_:)`` for
  /// `.action(action, origin: origin)`, without making a work item of it (see ``WorkQueue``).
  @inlinable
  mutating func admitReentrant(action: Action, origin: EffectOrigin? = nil) -> Bool {
    guard case .open = lifecycle, replaying == 0 else {
      // Refused, left out of a replay, or (a replayed input's) accepted: as its work item.
      return admitReentrant(.action(action, origin: origin))
    }
    if holder.collectingCommandInputs {
      commandQueue.append(.action(action, origin: origin))
    } else {
      queue.append(action: action, origin: origin)
    }
    return true
  }

  /// Whether the next work item (``takeNext()``) is an action of the queue's actions' lane, which
  /// the holder takes as itself (``takeNextAction()``); asked only when ``hasWork``.
  @inlinable
  var nextIsPlainAction: Bool {
    commandQueue.isEmpty && queue.nextIsAction
  }

  /// The holder takes the next work item, an action of the actions' lane, as itself:
  /// ``takeNext()`` without making a work item of it (see ``WorkQueue``); only when
  /// ``nextIsPlainAction``.
  @inlinable
  mutating func takeNextAction() -> WorkQueue<State, Action>.QueuedAction {
    queue.removeFirstAction()
  }

  /// The holder takes the next work item, a synchronous command's inputs before the rest; only
  /// when ``hasWork``.
  ///
  /// Not an optional: a `Work?` of the engine's multi-payload enum costs a runtime call per
  /// input to read its tag (+90 instructions per action in W1).
  @inlinable
  mutating func takeNext() -> Work {
    commandQueue.isEmpty ? queue.removeFirst() : commandQueue.removeFirst()
  }

  /// held → idle: the holder found nothing left (``hasWork``) and gives up the token; `nil`
  /// when nobody is to be told.
  @inlinable
  mutating func releaseToken() -> Release? {
    setToken(.idle)
    holder = HolderState()
    // `closedBoxes` and `closers` are only filled once closed: one check for both.
    if idleWaiters.isEmpty && !closed { return nil }
    defer {
      idleWaiters = []
      closedBoxes = []
      closers = []
    }
    return Release(waiters: idleWaiters, closedBoxes: closedBoxes, closers: closers)
  }

  /// What giving up the token leaves to do once the lock is released: resume the waiters for
  /// idleness, tell the subscriptions `close()` ended while a thread was processing that the
  /// store closed, and then wake the threads that closed it meanwhile.
  @usableFromInline
  struct Release {
    @usableFromInline var waiters: [CheckedContinuation<Void, Never>]
    @usableFromInline var closedBoxes: [SubscriptionBox<State>]
    @usableFromInline var closers: [@Sendable () -> Void]

    @usableFromInline
    init(
      waiters: [CheckedContinuation<Void, Never>],
      closedBoxes: [SubscriptionBox<State>],
      closers: [@Sendable () -> Void]
    ) {
      self.waiters = waiters
      self.closedBoxes = closedBoxes
      self.closers = closers
    }
  }

  /// Registers a waiter for the store to be idle (no one processing, nothing queued); `false`
  /// if it is idle now, and the caller resumes it.
  @usableFromInline
  mutating func awaitIdle(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
    if !processing && queue.isEmpty && commandQueue.isEmpty { return false }
    idleWaiters.append(waiter)
    return true
  }
}

// MARK: - Reducing

extension EngineStateMachine {
  /// The holder begins reducing an input, under the lock, unless the store has closed.
  ///
  /// The reducer, the one piece of user code that runs with the lock held, runs between this
  /// and ``endReduction()``; meanwhile ``HolderState/reducing`` tells a send from inside it that
  /// this thread holds the lock.
  @inlinable
  mutating func beginReduction(describedAs description: String?) -> Bool {
    if closed { return false }
    if description != nil { current = description }
    holder.reducing = true
    return true
  }

  /// The holder has reduced an input: its sequence number.
  @inlinable
  mutating func endReduction() -> UInt64 {
    holder.reducing = false
    sequence &+= 1
    return sequence
  }
}

// MARK: - Lifecycle

extension EngineStateMachine {
  /// open → draining: `shutdown()` stops accepting inputs from outside.
  @usableFromInline
  mutating func stopAccepting() {
    if case .open = lifecycle { lifecycle = .draining }
  }

  /// What closing leaves the engine to do once the lock is released.
  @usableFromInline
  struct Closing {
    /// Subscriptions to end.
    var subscriptions: [SubscriptionBox<State>]
    /// Whether to tell them now; otherwise the processing thread tells them when it stops.
    var tellNow: Bool
    /// Effects to stop.
    var stops: [EffectStop]
    /// How many effects were in flight (each charged to the store's resource account).
    var effects: Int
    /// How many parked commands were dropped.
    var parked: Int
    /// What queued `run` work runs instead, now that it will not run.
    var dropped: [@Sendable () -> Void]
    /// Who waited for the store to be idle or to have no work: resumed.
    var waiters: [CheckedContinuation<Void, Never>]
    /// Whether the closer waits for the holder to finish the input in hand (woken by `wake`).
    var awaitsHolder: Bool
  }

  /// Any state → closed, by `thread`: empties the queues and every registry, and returns what to
  /// end.
  ///
  /// If another thread holds the token and has begun (not a queue job yet to start, which finds
  /// the store closed and does nothing), the closer waits for it: `waker()` makes what wakes the
  /// closer, kept and called when the holder gives up the token (``releaseToken()``).
  @usableFromInline
  mutating func close(
    by thread: UInt,
    waker: () -> @Sendable () -> Void
  ) -> Closing {
    lifecycle = .closed
    var dropped: [@Sendable () -> Void] = []
    while let work = commandQueue.popFirst() ?? queue.popFirst() {
      if case .run(_, let whenDropped) = work { dropped.append(whenDropped) }
    }
    let tellNow = !processing
    if !tellNow { closedBoxes = subscriptions }
    var awaitsHolder = false
    if case .held(let holder) = token, holder != 0, holder != thread {
      closers.append(waker())
      awaitsHolder = true
    }
    let (stops, effectCount) = effects.removeAll()
    defer {
      subscriptions = []
      parked = []
      idleWaiters = []
      workWaiters = []
    }
    return Closing(
      subscriptions: subscriptions,
      tellNow: tellNow,
      stops: stops,
      effects: effectCount,
      parked: parked.count,
      dropped: dropped,
      waiters: idleWaiters + workWaiters,
      awaitsHolder: awaitsHolder
    )
  }

  /// Whether the store is at rest: closed, or no work in flight, no one processing and nothing
  /// queued.
  @usableFromInline
  var isQuiescent: Bool {
    closed
      || (effects.count == 0 && !processing && queue.isEmpty
        && commandQueue.isEmpty)
  }
}

// MARK: - Replay

extension EngineStateMachine {
  /// A replay begins: from now until it ends, only its inputs are admitted and no effect starts.
  @usableFromInline
  mutating func beginReplay() {
    replaying += 1
  }

  /// A replay ends: what the replays left out while it ran (reset when the last one ends).
  @usableFromInline
  mutating func endReplay() -> (droppedInputs: Int, skippedEffects: Int) {
    replaying -= 1
    let counts = (replayDropped, replaySkippedEffects)
    if replaying == 0 {
      replayDropped = 0
      replaySkippedEffects = 0
    }
    return counts
  }

  /// Whether an effect must not start because a replay is in progress; counts it if so.
  @inlinable
  mutating func skipsEffectForReplay() -> Bool {
    guard replaying > 0 else { return false }
    replaySkippedEffects += 1
    return true
  }

  /// Whether `work` is refused because a replay is in progress (not because the store closed):
  /// counted, not reported.
  @inlinable
  mutating func refusedForReplay(_ work: Work) -> Bool {
    guard replaying > 0, case .open = lifecycle, !work.isAcceptedDuringReplay else { return false }
    switch work {
    case .command: replaySkippedEffects += 1
    default: replayDropped += 1
    }
    return true
  }
}

// MARK: - Effects

extension EngineStateMachine {
  /// Registers an effect (a command's task, stopped later through ``EffectRegistry/setStop(_:for:)``,
  /// or one with its `stop`), unless the store has closed or a replay is in progress (counted).
  @usableFromInline
  mutating func startEffect(
    key: CommandID?,
    stop: EffectStop?
  ) -> (EffectOrigin, StoreProbe<State, Action>?)? {
    guard !closed, !skipsEffectForReplay() else { return nil }
    return (effects.register(key: key, stop: stop), probe)
  }

  /// Registers the effect `make` makes with its id (``EffectRegistry/register(key:stop:make:)``:
  /// a command's ``CommandTask``), unless the store has closed or a replay is in progress
  /// (counted).
  @inlinable
  mutating func startEffect<Origin: EffectOrigin>(
    key: CommandID?,
    stop: EffectStop?,
    make: (_ id: Int, _ slot: Int) -> Origin
  ) -> (Origin, StoreProbe<State, Action>?)? {
    guard !closed, !skipsEffectForReplay() else { return nil }
    return (effects.register(key: key, stop: stop, make: make), probe)
  }

  /// `origin`'s effect ended: whether it was still registered, and, if no effect is left, the
  /// waiters to resume.
  @inlinable
  mutating func endEffect(
    _ origin: EffectOrigin
  ) -> (ended: Bool, probe: StoreProbe<State, Action>?, waiters: [CheckedContinuation<Void, Never>])
  {
    let ended = effects.end(origin)
    guard ended, effects.count == 0, !workWaiters.isEmpty else { return (ended, probe, []) }
    defer { workWaiters = [] }
    return (true, probe, workWaiters)
  }

  /// Registers a waiter for the effects to be gone; `false` if they are (or the store closed),
  /// and the caller resumes it.
  @usableFromInline
  mutating func awaitNoEffects(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
    if closed || effects.count == 0 { return false }
    workWaiters.append(waiter)
    return true
  }

  /// Cancels the effects and the parked commands with key `id`: the effects' stops, and how many
  /// parked commands were dropped.
  @usableFromInline
  mutating func cancel(key id: CommandID) -> (stops: [EffectStop], parked: Int) {
    let stops = effects.cancel(key: id)
    var parkedCount = 0
    parked.removeAll { command in
      guard command.command.id == id else { return false }
      parkedCount += 1
      return true
    }
    return (stops, parkedCount)
  }

  /// A command whose state does not allow it yet waits, until `deadline`.
  @usableFromInline
  mutating func park(_ command: CommandBox<State, Action>, until deadline: SchedulerInstant) {
    parked.append(ParkedCommand(command: command, deadline: deadline))
  }

  /// Takes out the parked commands `allowed` says may run now (answers asked of `parked`, in
  /// order, with no lock held); none if the list changed meanwhile (the store closed), or while
  /// a replay is in progress (parked commands are effects).
  @usableFromInline
  mutating func takeParked(
    allowed: [Bool],
    of count: Int
  ) -> [ParkedCommand<State, Action>] {
    guard replaying == 0, parked.count == count else { return [] }
    var ready: [ParkedCommand<State, Action>] = []
    var waiting: [ParkedCommand<State, Action>] = []
    for (command, isAllowed) in zip(parked, allowed) {
      if isAllowed { ready.append(command) } else { waiting.append(command) }
    }
    parked = waiting
    return ready
  }

  /// Takes out the parked commands whose deadline has passed at `now`.
  @usableFromInline
  mutating func takeExpired(at now: SchedulerInstant) -> [ParkedCommand<State, Action>] {
    var expired: [ParkedCommand<State, Action>] = []
    parked.removeAll { parked in
      guard parked.deadline <= now else { return false }
      expired.append(parked)
      return true
    }
    return expired
  }
}

// MARK: - Subscriptions

extension EngineStateMachine {
  /// Adds `box` to the subscriptions unless the store closed or the box ended: whether it was
  /// added, and the earlier subscription of the same owner it replaced (to end).
  @usableFromInline
  mutating func attach(
    _ box: SubscriptionBox<State>
  ) -> (attached: Bool, replaced: SubscriptionBox<State>?) {
    guard !closed, box.isActive else { return (false, nil) }
    var replaced: SubscriptionBox<State>?
    if let owner = box.owner, let index = subscriptions.firstIndex(where: { $0.owner == owner }) {
      replaced = subscriptions.remove(at: index)
    }
    subscriptions.append(box)
    return (true, replaced)
  }

  /// Removes `box` from the subscriptions.
  @usableFromInline
  mutating func detach(_ box: SubscriptionBox<State>) {
    subscriptions.removeAll { $0 === box }
  }

  /// Removes the subscriptions serving `owner`, and returns them (to end).
  @usableFromInline
  mutating func detach(owner: ObjectIdentifier) -> [SubscriptionBox<State>] {
    var removed: [SubscriptionBox<State>] = []
    subscriptions.removeAll { box in
      guard box.owner == owner else { return false }
      removed.append(box)
      return true
    }
    return removed
  }

  /// Removes the subscriptions whose subscriber is gone, and returns them (to end).
  @usableFromInline
  mutating func removeOrphans() -> [SubscriptionBox<State>] {
    var removed: [SubscriptionBox<State>] = []
    subscriptions.removeAll { box in
      guard box.isOrphaned else { return false }
      removed.append(box)
      return true
    }
    return removed
  }
}
