/// How a reactor starts, as a state machine: a value with no threads and no locks of its own.
///
/// A reactor starts on first use. Starting calls user code (the `transform` hooks, and the
/// actions they emit as they are subscribed), so it runs outside any lock; this machine, kept
/// behind the runtime's lock, says what each caller does meanwhile. Each transition returns what
/// the caller does *after* the lock is released.
///
/// ```
///          first use             core built                nothing queued
///   idle ─────────────▶ building ──────────────▶ connecting ────────────────▶ started
///                                                  │     ▲
///                                                  └─────┘
///                                          queued work taken and
///                                          done by the starter
///
///                building                        connecting               started
///   work         queued                          starter's: done now;     done now
///                                                others': queued
///   reads        starter: no core yet;           starter: the core;       the core
///                others: wait                    others: wait
/// ```
///
/// Work is what needs the started reactor: an action sent, a subscription to its state made
/// from inside a hook's body.
///
/// - **building**: the starter is building the core: its store, and the streams of the hooks.
///   There is no core yet. All work is queued; a read by the starter itself (from inside a
///   hook's body) is told so, and a read by another thread waits.
/// - **connecting**: the core exists; the starter subscribes the hooks' streams (what they emit
///   on subscription is processed now), then does the queued work, in order, until none is left.
///   The starter's own calls go straight to the core (they are reentrant calls, handled by the
///   store's reentrancy policy); other threads' work is queued behind what is already waiting,
///   and their reads wait.
/// - **started**: everyone uses the core.
@usableFromInline
struct ReactorStart<Core, Pending> {
  @usableFromInline
  enum Phase {
    case idle
    case building(starter: UInt, pending: [Pending], waiters: Int)
    case connecting(starter: UInt, core: Core, pending: [Pending], waiters: Int)
    case started(Core)
  }

  @usableFromInline var phase: Phase = .idle

  @usableFromInline init() {}

  /// What a caller that needs the core does.
  @usableFromInline
  enum Access {
    /// Start the reactor: the caller is the starter.
    case start
    /// Use this core.
    case use(Core)
    /// Wait until the reactor has started, then ask again.
    case wait
    /// The starter itself asked while building: there is no core yet.
    case noCoreYet
  }

  /// A caller on `thread` needs the core.
  @usableFromInline
  mutating func access(by thread: UInt) -> Access {
    switch phase {
    case .idle:
      phase = .building(starter: thread, pending: [], waiters: 0)
      return .start
    case .building(let starter, let pending, let waiters):
      if starter == thread { return .noCoreYet }
      phase = .building(starter: starter, pending: pending, waiters: waiters + 1)
      return .wait
    case .connecting(let starter, let core, let pending, let waiters):
      if starter == thread { return .use(core) }
      phase = .connecting(starter: starter, core: core, pending: pending, waiters: waiters + 1)
      return .wait
    case .started(let core):
      return .use(core)
    }
  }

  /// What a caller that has work for the started reactor (an action to send, a subscription
  /// to make) does.
  @usableFromInline
  enum Enqueue {
    /// Start the reactor: the caller is the starter, and its work is the first queued.
    case start
    /// Do the work now, with this core.
    case use(Core)
    /// Nothing: the work is queued, and the starter does it once the core is connected.
    case queued
  }

  /// A caller on `thread` has `work` for the started reactor.
  @usableFromInline
  mutating func enqueue(_ work: Pending, by thread: UInt) -> Enqueue {
    switch phase {
    case .idle:
      phase = .building(starter: thread, pending: [work], waiters: 0)
      return .start
    case .building(let starter, var pending, let waiters):
      pending.append(work)
      phase = .building(starter: starter, pending: pending, waiters: waiters)
      return .queued
    case .connecting(let starter, let core, var pending, let waiters):
      if starter == thread { return .use(core) }
      pending.append(work)
      phase = .connecting(starter: starter, core: core, pending: pending, waiters: waiters)
      return .queued
    case .started(let core):
      return .use(core)
    }
  }

  /// The starter built `core`: it connects it next.
  @usableFromInline
  mutating func built(_ core: Core) {
    guard case .building(let starter, let pending, let waiters) = phase else {
      preconditionFailure("a reactor's core was built twice")
    }
    phase = .connecting(starter: starter, core: core, pending: pending, waiters: waiters)
  }

  /// What the starter does once the core is connected, until the reactor has started.
  @usableFromInline
  enum Next {
    /// Do this queued work, in order, then ask again.
    case run([Pending])
    /// The reactor has started: wake this many waiting threads.
    case started(waking: Int)
  }

  /// The starter asks what queued work is left.
  @usableFromInline
  mutating func next() -> Next {
    guard case .connecting(let starter, let core, let pending, let waiters) = phase else {
      preconditionFailure("a reactor that is not connecting was asked for its queued work")
    }
    if pending.isEmpty {
      phase = .started(core)
      return .started(waking: waiters)
    }
    phase = .connecting(starter: starter, core: core, pending: [], waiters: waiters)
    return .run(pending)
  }
}

extension ReactorStart: Sendable where Core: Sendable, Pending: Sendable {}
extension ReactorStart.Phase: Sendable where Core: Sendable, Pending: Sendable {}
