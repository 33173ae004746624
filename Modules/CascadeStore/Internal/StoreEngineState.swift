public import CascadeStreams

/// Who holds a store engine's processing token (see ``EngineState``).
@usableFromInline
enum EngineToken: Sendable {
  /// No one is processing: the next submitter takes the token.
  case idle
  /// A thread (or the store's queue) is processing; inputs sent meanwhile are queued.
  case held
}

/// Where a store is in its life (see ``EngineState``).
@usableFromInline
enum EngineLifecycle: Sendable {
  case open
  case draining
  case closed
}

/// A store engine's shared state, kept behind its lock, as a state machine.
///
/// Three things move independently: who holds the *processing token* (``EngineToken``), where
/// the store is in its life (``EngineLifecycle``), and the effects in flight
/// (``EffectRegistry``):
///
/// ```
///   token:      idle ──admit / takeTokenIfOpenAndIdle──▶ held ──hasWork false: releaseToken──▶ idle
///                         (the submitter, or the store's queue, processes)
///               held: admit queues ──▶ takeNext (a command's inputs first) ──▶ process ──┐
///                       ▲───────────────────────────────────────────────────────────────┘
///
///   lifecycle:  open ──shutdown(): stopAccepting──▶ draining ──effects ended, queue processed──▶ closed
///                 └─────────────────────close(), the owner released─────────────────────────▶ closed
///
///   effects:    register ──▶ running ──cancel(key:) / cancel(effect:) / cancelAll──▶ cancelled
///                                │                                                     │
///                                └──────────────end (returned, completed, disposed)─────┴──▶ gone
/// ```
///
/// - **open**: every input is accepted (``admit(_:)``, ``admitReentrant(_:fromCommand:)``).
/// - **draining**: `shutdown()` stopped accepting inputs from outside; the engine's own work
///   (expiring parked commands) is still accepted, and what is queued is processed.
/// - **closed**: nothing is accepted or delivered; the queues were emptied (their `run` work
///   told it was dropped), effects stopped, waiters resumed, subscriptions ended — at once, or, if
///   a thread was processing, by that thread when it gives up the token (`closedBoxes`). A
///   thread that closes while another processes waits until then (``awaitHolder(_:)``, woken by
///   ``releaseToken()``), so no delivery runs after `close()` returns; the holder closing the
///   store itself never waits.
/// - A **cancelled** effect's inputs are dropped when processed (its ``EffectOrigin`` is marked),
///   whether queued before the cancellation or sent after it.
///
/// The transitions are the mutating methods below, called under the lock; each returns what
/// the engine does *after* releasing it (process, drop, resume waiters, stop effects, end
/// subscriptions), so no user code and no continuation runs under the lock. The reducer is the
/// one piece of user code that runs with the lock held (`StoreEngine.apply`). They are tested
/// one by one, with no threads, in `StoreEngineStateTests` and `EffectRegistryTests`.
@usableFromInline
struct EngineState<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline typealias Work = EngineWork<State, Action>

  @usableFromInline typealias Token = EngineToken
  @usableFromInline typealias Lifecycle = EngineLifecycle

  @usableFromInline init(state: State) {
    self.state = state
  }

  @usableFromInline var state: State
  @usableFromInline var queue = FIFO<Work>()
  /// What synchronous commands sent before returning: taken before `queue`, in the order sent,
  /// so each command's inputs complete its turn ahead of inputs other threads queued.
  @usableFromInline var commandQueue = FIFO<Work>()
  @usableFromInline var token = Token.idle
  @usableFromInline var lifecycle = Lifecycle.open
  @usableFromInline var subscriptions: [SubscriptionBox<State>] = []
  @usableFromInline var sequence: UInt64 = 0
  @usableFromInline var parked: [ParkedCommand<State, Action>] = []
  /// The effects in flight (commands' tasks, mutation streams, feedback effects), and which
  /// were cancelled.
  @usableFromInline var effects = EffectRegistry()
  @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// Who waits for the effects to be gone (``waitUntilNoWork()``).
  @usableFromInline var workWaiters: [CheckedContinuation<Void, Never>] = []
  @usableFromInline var current: String?
  /// Subscriptions ended by `close()` while a thread was processing: that thread tells them
  /// when it stops, so their last delivery and the end never overlap.
  @usableFromInline var closedBoxes: [SubscriptionBox<State>] = []
  /// Threads that closed the store while another thread was processing, waiting for that thread
  /// to finish the input in hand: woken when it gives up the token.
  @usableFromInline var closers: [@Sendable () -> Void] = []
  /// The observer CascadeTesting's TestStore installs; `nil` otherwise.
  @usableFromInline var probe: StoreProbe<State, Action>?
  /// The replays in progress (``StoreEngine/replay(_:)``): while there is one, only its inputs
  /// are accepted and no effect starts.
  @usableFromInline var replaying = 0
  /// What the replays in progress left out: inputs from elsewhere, effects not started.
  @usableFromInline var replayDropped = 0
  @usableFromInline var replaySkippedEffects = 0
}

extension EngineState {
  /// Whether a thread is processing.
  @inlinable var processing: Bool {
    if case .held = token { return true }
    return false
  }
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

  /// What ``admit(_:)`` decided for a submitted work item.
  @usableFromInline
  enum Admission {
    /// Not accepted (the store is draining or closed): the engine drops it.
    case refused
    /// Not accepted because a replay is in progress: counted in ``replayDropped`` or
    /// ``replaySkippedEffects``, and dropped quietly.
    case leftOutOfReplay
    /// Someone is processing: it was queued, and will be processed in order.
    case queued
    /// idle → held: no one was processing, so the submitter now holds the token (the work was
    /// not queued: the submitter processes it, or queues it for its store's queue).
    case holdToken
  }

  /// A submission from outside the processing thread.
  @inlinable
  mutating func admit(_ work: Work) -> Admission {
    guard accepts(work) else { return refusedForReplay(work) ? .leftOutOfReplay : .refused }
    if processing {
      queue.append(work)
      return .queued
    }
    token = .held
    return .holdToken
  }

  /// idle → held for an action the submitter processes at once: only while open and idle
  /// (otherwise the general ``admit(_:)`` decides).
  @inlinable
  mutating func takeTokenIfOpenAndIdle() -> Bool {
    guard accepting, replaying == 0, !processing else { return false }
    token = .held
    return true
  }

  /// A submission from the processing thread itself (a subscriber, middleware or command of the
  /// store): queued if accepted, in `commandQueue` when a synchronous command sent it; `false`
  /// if refused because the store is draining or closed (left out of a replay counts as
  /// handled).
  @inlinable
  mutating func admitReentrant(_ work: Work, fromCommand: Bool) -> Bool {
    guard accepts(work) else { return refusedForReplay(work) }
    if fromCommand {
      commandQueue.append(work)
    } else {
      queue.append(work)
    }
    return true
  }

  /// open → draining: `shutdown()` stops accepting inputs from outside.
  @usableFromInline
  mutating func stopAccepting() {
    if case .open = lifecycle { lifecycle = .draining }
  }

  /// Whether the token holder has work to take (``takeNext()``): none once the store closed.
  @inlinable
  var hasWork: Bool {
    !closed && !(commandQueue.isEmpty && queue.isEmpty)
  }

  /// The token holder takes the next work item, a synchronous command's inputs before the
  /// rest; only when ``hasWork``.
  ///
  /// Not an optional: a `Work?` of the engine's multi-payload enum costs a runtime call per
  /// input to read its tag (+90 instructions per action in W1).
  @inlinable
  mutating func takeNext() -> Work {
    commandQueue.isEmpty ? queue.removeFirst() : commandQueue.removeFirst()
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

  /// held → idle: the token holder found nothing left (``hasWork``) and gives up the token;
  /// `nil` when nobody is to be told.
  @inlinable
  mutating func releaseToken() -> Release? {
    token = .idle
    // `closedBoxes` and `closers` are only filled once closed: one check for both.
    if idleWaiters.isEmpty && !closed { return nil }
    defer {
      idleWaiters = []
      closedBoxes = []
      closers = []
    }
    return Release(waiters: idleWaiters, closedBoxes: closedBoxes, closers: closers)
  }

  /// Registers a thread that closed the store while another holds the token.
  ///
  /// The closer (``close()``) then waits, with no lock held, until the holder has finished the
  /// input in hand: `wake` is called when it gives up the token. Only while a thread is
  /// processing.
  @usableFromInline
  mutating func awaitHolder(_ wake: @escaping @Sendable () -> Void) {
    precondition(processing, "awaitHolder(_:) without a thread processing")
    closers.append(wake)
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
  }

  /// Any state → closed: empties the queues and every registry, and returns what to end.
  @usableFromInline
  mutating func close() -> Closing {
    lifecycle = .closed
    var dropped: [@Sendable () -> Void] = []
    while let work = commandQueue.popFirst() ?? queue.popFirst() {
      if case .run(_, let whenDropped) = work { dropped.append(whenDropped) }
    }
    let tellNow = !processing
    if !tellNow { closedBoxes = subscriptions }
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
      waiters: idleWaiters + workWaiters
    )
  }

  /// The waiters for the end of all work, taken out if no work is left.
  @usableFromInline
  mutating func takeWorkWaitersIfIdle() -> [CheckedContinuation<Void, Never>] {
    guard effects.count == 0, !workWaiters.isEmpty else { return [] }
    defer { workWaiters = [] }
    return workWaiters
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
