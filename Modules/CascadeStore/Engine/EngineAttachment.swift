import CascadeStreams

/// The architecture as its middlewares see it (``MiddlewareHost``), from the moment they are
/// attached, while ``StoreEngine``'s `init` runs, before the engine is complete.
///
/// The middlewares are attached first, so that the engine's ``MiddlewareStack`` is made after,
/// knowing which of them still process inputs (``Middleware/processesInputs``), and kept in a
/// constant: the processing thread reads it without an exclusivity check. Until the engine is
/// complete, a snapshot is the initial state (no input reduced, at rest), which is what the
/// engine would answer; after, the engine's, read through a weak reference.
final class EngineAttachment<State: Sendable, Action: Sendable>: Sendable {
  private struct Stage: Sendable {
    /// The initial state, until the engine is complete (then let go of: the engine's changes
    /// to it would copy what it shares).
    var initial: State?
    /// The engine, once complete.
    weak var engine: StoreEngine<State, Action>?
    /// The log a middleware opened.
    var log: EngineInputLog<State, Action>?
    /// Whether a log may still open: only while the middlewares are attached.
    var opens = true
  }

  private let stage: LockedValue<Stage>
  /// The engine's dispatcher (``MiddlewareRecord/dispatcher``), made here so that the host
  /// hands it to the middlewares as they are attached (``MiddlewareHost/dispatcher``): an input
  /// it dispatches goes to the engine once complete, and nowhere before or once it is gone.
  let dispatcher: MiddlewareDispatcher<Action>

  init(initial: State) {
    let stage = LockedValue(Stage(initial: initial))
    self.stage = stage
    dispatcher = MiddlewareDispatcher { action in
      stage.withLock { $0.engine }?.submit(.action(action, origin: nil))
    }
  }

  /// The host handed to the middlewares.
  var host: MiddlewareHost<Action, State> {
    MiddlewareHost(
      snapshot: { [self] in snapshot() },
      openLog: { [self] wake in openLog(wake: wake) },
      dispatcher: dispatcher
    )
  }

  /// The log a middleware opened while attached; no log opens after.
  func closeLog() -> EngineInputLog<State, Action>? {
    stage.withLock { stage in
      stage.opens = false
      return stage.log
    }
  }

  /// Hands the snapshots over to `engine`, now complete.
  func complete(_ engine: StoreEngine<State, Action>) {
    stage.withLock { stage in
      stage.engine = engine
      stage.initial = nil
    }
  }

  private func snapshot() -> MiddlewareSnapshot<State>? {
    let (initial, engine) = stage.withLock { ($0.initial, $0.engine) }
    if let initial { return MiddlewareSnapshot(state: initial, sequence: 0, isResting: true) }
    return engine?.snapshot()
  }

  /// The middleware's take: the engine's (``StoreEngine/takeLog()``), or, before the engine is
  /// complete or once it is gone, what was added to the log.
  private func take(from log: EngineInputLog<State, Action>) -> MiddlewareLogBatch<Action, State> {
    if let engine = stage.withLock({ $0.engine }) { return engine.takeLog() }
    var room = 0
    let batch = log.take(collecting: false, room: &room).batch
    log.makeRoom(room)
    return batch
  }

  /// Opens the log of inputs for a middleware being attached: `nil` once attached, or if a log
  /// is open already.
  private func openLog(wake: @escaping @Sendable () -> Void) -> MiddlewareLog<Action, State>? {
    let log: EngineInputLog<State, Action>? = stage.withLock { stage in
      guard stage.opens, stage.log == nil else { return nil }
      let log = EngineInputLog<State, Action>(wake: wake)
      stage.log = log
      return log
    }
    guard let log else { return nil }
    return MiddlewareLog(
      take: { [self] in take(from: log) },
      captureStates: { log.captureStates(next: $0) },
      giveBack: { log.giveBack($0) }
    )
  }
}
