import CascadeStreams

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
    if isProcessingOnCurrentThread {
      preconditionFailure(
        "A store cannot replay from inside its own processing (a subscriber, middleware or command)"
      )
    }
    let origin = EffectOrigin(id: 0, isReplay: true)
    storage.withLock { $0.beginReplay() }
    var replayed = 0
    for input in inputs {
      submit(.action(input, origin: origin))
      replayed += 1
    }
    await waitUntilIdle()
    let (dropped, skipped) = storage.withLock { $0.endReplay() }
    return ReplayReport(replayed: replayed, droppedInputs: dropped, skippedEffects: skipped)
  }
}
