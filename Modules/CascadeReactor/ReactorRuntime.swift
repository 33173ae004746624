public import CascadeStore
public import CascadeStreams
import Dispatch
public import Synchronization

/// A reactor's machinery: the store that holds its state and processes its actions and
/// mutations in order, the action input, the state stream and the stub.
///
/// Declare one as a stored property of a reactor (``BaseReactor`` has one):
///
/// ```swift
/// let runtime = ReactorRuntime<Action, Mutation, State>()
/// ```
///
/// A reactor that declares none gets one kept for it by ``ReactorRuntimes``.
///
/// It starts on first use (the first action, or the first read of the state), calling the
/// reactor's `transform` hooks once. When it is released with its reactor, the reactor's work in
/// flight is cancelled and its subscriptions end.
public final class ReactorRuntime<Action: Sendable, Mutation: Sendable, State: Sendable>:
  @unchecked Sendable
{
  @usableFromInline typealias Core = ReactorCore<Action, Mutation, State>

  // Safety: `coreAddress` holds the core retained (released in `deinit`), stored once, when the
  // core is built and before anything can send to its store, with release ordering; `started`
  // is stored (release) after that. It is read after loading `started` (acquire), by the
  // starter after storing it, or by the store's processing of an input, which happens after the
  // core was connected (`ReactorStart`). An atomic rather than a stored `var`: reading it costs
  // a plain load, where a `var` of this class would pay a dynamic exclusivity check per action.
  /// The running machinery's address, retained by the runtime and handed out unretained: the
  /// hot path reaches it without retain and release.
  @usableFromInline let coreAddress = Atomic<UnsafeMutableRawPointer?>(nil)
  @usableFromInline let started = Atomic<Bool>(false)
  /// How far the start has got (see ``ReactorStart``).
  ///
  /// Never held while user code runs.
  @usableFromInline let startState = LockedValue(ReactorStart<Core, @Sendable () -> Void>())
  /// Where threads that need the core wait while another thread starts the reactor.
  let startWaiters = DispatchSemaphore(value: 0)
  @usableFromInline let stubbed = Atomic<Bool>(false)
  /// The observers of the reactor's actions (`reactor.action.subscribe(…)`).
  @usableFromInline let actionObservers = ActionObservers()

  /// Creates a runtime; it starts on first use.
  public init() {}

  deinit {
    if let address = coreAddress.load(ordering: .acquiring) {
      Unmanaged<Core>.fromOpaque(address).release()
    }
  }

  /// The running machinery, started for `reactor` on first use.
  ///
  /// Traps when called from inside one of the reactor's own `transform` hooks while it is being
  /// built, where there is no core yet; the callers that can answer without one use
  /// ``coreIfBuilt(for:)``.
  @inlinable
  func core<R: Reactor>(for reactor: R) -> Core
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    guard let core = coreIfBuilt(for: reactor) else {
      preconditionFailure(
        "\(R.self) was used inside one of its own transform hooks while it starts; "
          + "only send, currentState and the state streams may be used there"
      )
    }
    return core
  }

  /// The running machinery, started for `reactor` on first use; `nil` when called from inside
  /// one of the reactor's `transform` hooks while the reactor is being built.
  @inlinable
  func coreIfBuilt<R: Reactor>(for reactor: R) -> Core?
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    if started.load(ordering: .acquiring) {
      return builtCore.takeUnretainedValue()
    }
    return startingCore(for: reactor)
  }

  // The slow paths below are inlinable so that the core `start` builds is specialized for the
  // reactor's types in client code: built from unspecialized code, its closures would look up
  // generic metadata on every action (×7 instructions per action in W1).

  /// The slow path of ``coreIfBuilt(for:)``: the reactor has not started yet.
  @inlinable
  func startingCore<R: Reactor>(for reactor: R) -> Core?
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    let thread = currentThreadIdentity()
    while true {
      switch startState.withLock({ $0.access(by: thread) }) {
      case .use(let core): return core
      case .noCoreYet: return nil
      case .wait: waitForStart()
      case .start: return start(reactor)
      }
    }
  }

  /// The slow path of ``send(_:from:)``: the reactor has not started yet.
  @inlinable
  func sendWhileStarting<R: Reactor>(_ action: Action, from reactor: R)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    whenStarted(reactor) { [unowned self] core in
      if isStubbed {
        core.stub.record(action)
      } else {
        core.send(action, from: reactor)
      }
    }
  }

  /// Does `work` with the started core: now if the reactor has started (or the caller is
  /// starting it and has connected it), else once it has, in the order work was queued.
  @inlinable
  func whenStarted<R: Reactor>(_ reactor: R, _ work: @escaping @Sendable (Core) -> Void)
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    if started.load(ordering: .acquiring) {
      work(builtCore.takeUnretainedValue())
      return
    }
    let queued: @Sendable () -> Void = { [unowned self] in
      work(builtCore.takeUnretainedValue())
    }
    switch startState.withLock({ $0.enqueue(queued, by: currentThreadIdentity()) }) {
    case .use(let core): work(core)
    case .queued: break
    case .start: _ = start(reactor)
    }
  }

  /// Waits until the thread starting the reactor wakes this one.
  @usableFromInline
  func waitForStart() {
    startWaiters.wait()
  }

  /// Wakes `count` threads waiting for the start.
  @usableFromInline
  func wakeStartWaiters(_ count: Int) {
    for _ in 0..<count { startWaiters.signal() }
  }

  /// Starts the reactor on the starter's thread.
  ///
  /// Builds the core, connects it, and does the work queued meanwhile (see ``ReactorStart``).
  /// No lock is held while the reactor's code runs.
  @inlinable
  func start<R: Reactor>(_ reactor: R) -> Core
  where R.Action == Action, R.Mutation == Mutation, R.State == State {
    let (core, connect) = Core.build(reactor)
    startState.withLock { start in
      coreAddress.store(Unmanaged.passRetained(core).toOpaque(), ordering: .releasing)
      start.built(core)
    }
    connect()
    while true {
      switch startState.withLock({ $0.next() }) {
      case .run(let queued):
        for work in queued { work() }
      case .started(let waking):
        started.store(true, ordering: .releasing)
        wakeStartWaiters(waking)
        return core
      }
    }
  }
}
