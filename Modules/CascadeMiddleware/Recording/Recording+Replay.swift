public import CascadeFeedback
public import CascadeReactor
public import CascadeStore

extension Recording {
  /// Replays the recording into a store: its states, and no effect.
  ///
  /// The store's replay mode (`Store.replay(_:)`) processes the recorded actions and nothing
  /// else: commands, asynchronous work and middleware dispatches do not run — the actions they
  /// sent are in the recording, and are replayed in their place — and actions from anywhere
  /// else during the replay are dropped. A store built like the recorded one (same initial state
  /// and reducer) reaches the same states.
  ///
  /// ```swift
  /// let recording = try Recording<Action>(contentsOf: url)
  /// let store = Store(initialState: AppState(), reducer: reduce)
  /// let report = await recording.replay(into: store)
  /// ```
  @discardableResult
  public func replay<State>(into store: Store<State, Input>) async -> ReplayReport {
    await store.replay(inputs)
  }

  /// Replays the recording into a feedback loop: its states, and no feedback effect (see
  /// `FeedbackLoop.replay(_:)`).
  @discardableResult
  public func replay<State>(into loop: FeedbackLoop<State, Input>) async -> ReplayReport {
    await loop.replay(inputs)
  }

  /// Replays the recording into a reactor: its actions, and the mutations each produced, without
  /// calling `mutate(action:)` (see `Reactor.replay(_:)`).
  ///
  /// - Throws: A `DecodingError` if a recorded mutation is not an `R.Mutation`; nothing is
  ///   replayed then.
  @discardableResult
  public func replay<R: Reactor>(into reactor: R) async throws -> ReplayReport
  where R.Action == Input, R.Mutation: Decodable {
    var replayed: [ReactorInput<Input, R.Mutation>] = []
    replayed.reserveCapacity(entries.count)
    for entry in entries {
      if let mutation = try entry.mutation(as: R.Mutation.self) {
        replayed.append(.mutation(mutation, cause: entry.input))
      } else {
        replayed.append(.action(entry.input))
      }
    }
    return await reactor.replay(replayed)
  }
}
