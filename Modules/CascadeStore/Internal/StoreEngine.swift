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
  @usableFromInline typealias Work = EngineWork<State, Action>
  @usableFromInline typealias Shared = EngineState<State, Action>

  // Safety: `storage` guards `Shared`; `reducer`, `step`, `middlewares`, `scheduler`,
  // `isolation`, `reentrancy`, `diagnostics` and `automaticallySkipsRepeats` are immutable;
  // `processingThread`, `reducing`, `replays`, `processingReplay` and `reduceWindowThread` are
  // atomics;
  // `elementGroups` and `collectingCommandInputs` are only touched by the thread holding the
  // processing token.
  @usableFromInline let storage: LockedValue<Shared>
  @usableFromInline let reducer: @Sendable (inout State, Action) -> Void
  @usableFromInline let middlewares: MiddlewareStack<Action, State>
  /// The architecture's step, if it has one (see ``EngineStep``).
  ///
  /// It turns one input into the inputs to reduce now (a reactor's action into its synchronous
  /// mutations), on the processing thread, with no lock held; without one, each input is reduced
  /// as it is with ``reducer``.
  @usableFromInline let step: EngineStep<State, Action>?
  /// Whether there is any middleware (checked on every input without touching the array).
  @usableFromInline let hasMiddlewares: Bool
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
  /// Whether a synchronous command is executing on the processing thread: what it sends is
  /// goes to `commandQueue` instead of `queue` (processing thread only).
  @usableFromInline var collectingCommandInputs = false
  /// Set at the end of `init` when there are middlewares, never changed after.
  @usableFromInline var dispatcherStorage: MiddlewareDispatcher<Action>?
  /// The identity of the thread holding the processing token, or 0.
  @usableFromInline let processingThread = Atomic<UInt>(0)
  /// Whether the processing thread is inside the reducer (and so holds the lock).
  @usableFromInline let reducing = Atomic<Bool>(false)
  /// The replays in progress (mirrors `Shared.replaying`, read without the lock where a command
  /// would run).
  @usableFromInline let replays = Atomic<Int>(0)
  /// Whether the processing thread is processing an input of a replay (written and read by the
  /// processing thread only: an atomic, not a `var`, only because a class's `var` costs an
  /// exclusivity check on each access, which the reactor's hot path would pay per action).
  @usableFromInline let processingReplay = Atomic<Bool>(false)
  /// The thread on which inputs sent now are reduced at once rather than queued, or 0: the
  /// processing thread, while an architecture starts the work of one input (see
  /// ``Store/withReduceWindow(_:)``).
  @usableFromInline let reduceWindowThread = Atomic<UInt>(0)

  init(
    state: State,
    reducer: @escaping @Sendable (inout State, Action) -> Void,
    middlewares: [any Middleware<Action, State>],
    scheduler: any Scheduler,
    isolation: StoreIsolation,
    reentrancy: ReentrancyPolicy,
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)?,
    automaticallySkipsRepeats: Bool = true,
    step: EngineStep<State, Action>? = nil
  ) {
    self.automaticallySkipsRepeats = automaticallySkipsRepeats
    storage = LockedValue(Shared(state: state))
    self.step = step
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
    switch shared.pointee.admit(work) {
    case .refused:
      storage.unlock()
      dropLate(work)
      return
    case .queued, .leftOutOfReplay:
      storage.unlock()
      return
    case .holdToken:
      break
    }
    let queue: DispatchQueue?
    switch isolation {
    case .callerThread: queue = nil
    case .queue(let own): queue = own
    case .mainQueue: queue = MainScheduler.isOnMainQueue ? nil : .main
    }
    if let queue {
      shared.pointee.queue.append(work)
      storage.unlock()
      queue.async { [self] in
        processingThread.store(currentThreadIdentity(), ordering: .relaxed)
        if let account {
          account.withCurrent { drain(sender: nil) }
        } else {
          drain(sender: nil)
        }
      }
    } else {
      processingThread.store(me, ordering: .relaxed)
      storage.unlock()
      process(work, sender: nil)
      drain(sender: nil)
    }
  }

  /// Submits an action: ``submit(_:)`` without boxing the action into a work item when the
  /// sending thread can process it at once (the common, uncontended case).
  ///
  /// `sender` is handed to the ``step`` of every input this thread processes before it gives up
  /// the processing token (see ``EngineStep``).
  @inlinable
  func submitAction(_ action: Action, origin: EffectOrigin?, sender: StepSender? = nil) {
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
    guard shared.pointee.takeTokenIfOpenAndIdle() else {
      // Another thread is processing, or the store is closed: the general path decides.
      storage.unlock()
      submit(.action(action, origin: nil))
      return
    }
    processingThread.store(me, ordering: .relaxed)
    storage.unlock()
    reduce(action, mark: nil, sender: sender)
    drain(sender: sender)
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
      _ = storage.unsafeValue.pointee.admitReentrant(work, fromCommand: false)
    } else {
      let shared = storage.unsafeValue
      storage.lock()
      let accepted = shared.pointee.admitReentrant(work, fromCommand: collectingCommandInputs)
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

  /// Processes queued work until the queue is empty, then gives up the processing token
  /// (``EngineState/hasWork``, ``EngineState/takeNext()``,
  /// ``EngineState/releaseToken()``).
  @inlinable
  func drain(sender: StepSender?) {
    let shared = storage.unsafeValue
    while true {
      storage.lock()
      if shared.pointee.hasWork {
        let work = shared.pointee.takeNext()
        storage.unlock()
        process(work, sender: sender)
        continue
      }
      processingThread.store(0, ordering: .relaxed)
      let release = shared.pointee.releaseToken()
      storage.unlock()
      if let release {
        for box in release.closedBoxes { box.storeDidClose() }
        for waiter in release.waiters { waiter.resume() }
        for wake in release.closers { wake() }
      }
      return
    }
  }
}
