/// What a replay did: how many inputs it replayed, and what it left out.
///
/// A replay processes exactly the inputs it was given. What the architecture would have done
/// on its own while processing them — run a command, start an effect (an asynchronous command,
/// a reactor's asynchronous mutations, a feedback), take an input from one of its reactions
/// (a middleware's dispatch, a subscriber's send) or from another thread — it does not do: the
/// recording already holds the inputs that work produced. Those are counted here.
public struct ReplayReport: Sendable, Equatable, CustomStringConvertible {
  /// The inputs replayed.
  public var replayed: Int
  /// The inputs from elsewhere that arrived during the replay and were dropped.
  public var droppedInputs: Int
  /// The commands and effects that did not run.
  public var skippedEffects: Int

  /// Creates a report.
  public init(replayed: Int, droppedInputs: Int = 0, skippedEffects: Int = 0) {
    self.replayed = replayed
    self.droppedInputs = droppedInputs
    self.skippedEffects = skippedEffects
  }

  /// `replayed 12 inputs; dropped 3 inputs from elsewhere; skipped 2 effects`.
  public var description: String {
    "replayed \(replayed) inputs; dropped \(droppedInputs) inputs from elsewhere; "
      + "skipped \(skippedEffects) effects"
  }
}

extension Store {
  /// Replays `actions` into the store: their states, and nothing else.
  ///
  /// Replay is a mode of the store, not a loop of ``send(_:)``. While it runs:
  /// - each action goes through the middlewares and the reducer, and the subscriptions see each
  ///   state, as for a sent action;
  /// - **no effect runs**: commands (fired or parked), asynchronous work (``run(_:id:cancelInFlight:_:)``,
  ///   a reactor's asynchronous mutations, a feedback's effects) and a middleware's dispatches
  ///   do not start — a recording already holds the inputs they sent, and replays them in their
  ///   place;
  /// - **only the replayed actions are processed**: actions sent by anything else (a
  ///   subscriber reacting to a replayed state, another thread) are dropped.
  ///
  /// It returns once every action was processed, with the counts of what it left out. The
  /// store is live again afterwards; effects that were running before the replay go on.
  ///
  /// ```swift
  /// let store = Store(initialState: AppState(), reducer: reduce)
  /// let report = await store.replay(recording.inputs)
  /// print(report)  // replayed 12 inputs; dropped 0 inputs from elsewhere; skipped 2 effects
  /// ```
  ///
  /// CascadeMiddleware's `Recording.replay(into:)` replays a recording file with this.
  ///
  /// - Precondition: Not called from the store's own processing (its reducer, a subscriber, a
  ///   middleware or a synchronous command), which cannot wait for itself.
  @discardableResult
  public func replay(_ actions: some Sequence<Action>) async -> ReplayReport {
    await engine.replay(actions)
  }
}
