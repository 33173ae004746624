public import CascadeStreams

/// A unit of work for a store engine's processing thread: an input, or the engine's own
/// bookkeeping done in order with the inputs.
@usableFromInline
enum EngineWork<State: Sendable, Action: Sendable>: Sendable {
  /// An input; `origin` is the effect that sent it (a command's task, a stream), if any; `mark`
  /// is the token it was sent with through `Store.send(_:mark:)`, which the probe reports.
  case action(Action, origin: EffectOrigin?, mark: UInt64? = nil)
  case subscribe(SubscriptionBox<State>)
  case command(CommandBox<State, Action>)
  case expireCommands
  case cancel(CommandID)
  /// Runs `body` on the processing thread, in order with the inputs; `dropped` runs instead
  /// if the store closed first.
  case run(@Sendable () -> Void, dropped: @Sendable () -> Void)

  /// The engine's own bookkeeping, accepted while the store drains after `shutdown()`.
  @inlinable
  var isInternal: Bool {
    switch self {
    case .expireCommands: true
    default: false
    }
  }
}

/// An architecture's step between receiving an input and reducing: how a reactor turns an
/// action into its mutations on the store it runs on.
///
/// The engine calls it on the processing thread, with no lock held, for each input (after the
/// middlewares' interception), with:
/// - the input;
/// - the *sender*: the object that sent the input through `Store.send(_:sender:)` and processes
///   it on its own thread, kept alive by that call and handed over unretained (a reactor, whose
///   retains are slow: see its `// Safety:` note); passed for every input that thread processes
///   before it gives up the processing token, and `nil` for inputs processed by another drain
///   (the step then finds its owner another way, e.g. a weak reference);
/// - `reduceNow(input, reducer)`: reduces `input` at once with `reducer`, under the lock, then
///   runs the middlewares' processing and notifies the subscriptions. It may be called any
///   number of times (none: the input only starts work).
///
/// A step is the *program* of an architecture: what runs outside the lock (`mutate`), and what
/// runs under it (the reducer it passes).
@usableFromInline
package typealias EngineStep<State, Action> =
  @Sendable (
    _ input: Action,
    _ sender: StepSender?,
    _ reduceNow: (Action, (inout State, Action) -> Void) -> Void
  ) -> Void

/// The object on whose behalf a thread processes a store's inputs (see ``EngineStep``), handed
/// over unretained.
///
/// Safety: the sender keeps the object alive for the whole call that processes
/// (`Store.send(_:sender:)`), and the engine passes it only down that call's stack, never storing
/// it, nor handing it to another thread: so it needs no retain.
/// That matters for a reactor, whose weak reference gives it a side table where each retain and
/// release costs ~80 instructions (W1 Reactor: 1085 instructions per action retained, 907
/// unretained, `Tooling/callgrind.sh`).
@usableFromInline
package struct StepSender {
  @usableFromInline let object: Unmanaged<AnyObject>

  @inlinable
  package init(_ object: AnyObject) {
    self.object = Unmanaged.passUnretained(object)
  }

  /// Calls `body` with the object, without retaining it.
  @inlinable
  package func with<T>(_ body: (AnyObject) -> T) -> T {
    object._withUnsafeGuaranteedRef(body)
  }
}

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

  /// Whether `work` may still be queued: everything while open, the engine's own bookkeeping
  /// while draining, nothing once closed.
  @inlinable
  func accepts(_ work: Work) -> Bool {
    switch lifecycle {
    case .open: true
    case .draining: work.isInternal
    case .closed: false
    }
  }

  /// What ``admit(_:)`` decided for a submitted work item.
  @usableFromInline
  enum Admission {
    /// Not accepted (the store is draining or closed): the engine drops it.
    case refused
    /// Someone is processing: it was queued, and will be processed in order.
    case queued
    /// idle → held: no one was processing, so the submitter now holds the token (the work was
    /// not queued: the submitter processes it, or queues it for its store's queue).
    case holdToken
  }

  /// A submission from outside the processing thread.
  @inlinable
  mutating func admit(_ work: Work) -> Admission {
    guard accepts(work) else { return .refused }
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
    guard accepting, !processing else { return false }
    token = .held
    return true
  }

  /// A submission from the processing thread itself (a subscriber, middleware or command of the
  /// store): queued if accepted, in `commandQueue` when a synchronous command sent it.
  @inlinable
  mutating func admitReentrant(_ work: Work, fromCommand: Bool) -> Bool {
    guard accepts(work) else { return false }
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
