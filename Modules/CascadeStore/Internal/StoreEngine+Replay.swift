import CascadeStreams
import Synchronization

extension StoreEngine {
  // MARK: - Replay

  /// Processes `inputs` in replay mode and returns what the replay left out.
  ///
  /// While a replay is in progress, only its inputs are accepted (inputs from elsewhere — the
  /// store's own reactions, other threads — are dropped and counted), commands are not run and
  /// no effect starts (counted); the inputs go through the middlewares and the reducer as any
  /// other, and the subscriptions see each state. Returns once every replayed input has been
  /// processed.
  func replay(_ inputs: some Sequence<Action>) async -> ReplayReport {
    if processingThread.load(ordering: .relaxed) == currentThreadIdentity() {
      preconditionFailure(
        "A store cannot replay from inside its own processing (a subscriber, middleware or command)"
      )
    }
    let origin = EffectOrigin(id: 0, isReplay: true)
    replays.add(1, ordering: .relaxed)
    storage.withLock { $0.replaying += 1 }
    var replayed = 0
    for input in inputs {
      submit(.action(input, origin: origin))
      replayed += 1
    }
    await waitUntilIdle()
    let (dropped, skipped) = storage.withLock { shared in
      shared.replaying -= 1
      let counts = (shared.replayDropped, shared.replaySkippedEffects)
      if shared.replaying == 0 {
        shared.replayDropped = 0
        shared.replaySkippedEffects = 0
      }
      return counts
    }
    replays.subtract(1, ordering: .relaxed)
    return ReplayReport(replayed: replayed, droppedInputs: dropped, skippedEffects: skipped)
  }
}
