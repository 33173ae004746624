public import CascadeFeedback
import CascadeMiddleware
public import CascadeReactor
public import CascadeStore

/// How a service replays the inputs of a session recording: into its store, feedback loop or
/// reactor, in replay mode (the recorded states, and no effect).
///
/// A replayer turns each run of consecutive input records into one replay, prepared when the
/// recording is opened (so that a record that does not fit is found before anything runs).
public struct SessionReplayer<Schema: SessionSchema>: Sendable {
  /// Prepares the replay of a run of input records.
  let prepare:
    @Sendable ([SessionRecording<Schema>.Entry]) throws(RecordMismatch) ->
      @Sendable () async
      -> ReplayReport

  /// Replays into a store whose actions are the schema's inputs (`Store.replay(_:)`).
  public static func store<State>(_ store: Store<State, Schema.Input>) -> Self {
    Self { entries in
      let inputs = entries.compactMap(input(of:))
      return { await store.replay(inputs) }
    }
  }

  /// Replays into a store whose actions are made from the schema's inputs by `decode` (a
  /// `Core`'s `any CoreEvent`).
  public static func store<State, Action>(
    _ store: Store<State, Action>,
    decode: @escaping @Sendable (Schema.Input) -> Action
  ) -> Self {
    Self { entries in
      let actions = entries.compactMap(input(of:)).map(decode)
      return { await store.replay(actions) }
    }
  }

  /// Replays into a feedback loop whose events are the schema's inputs
  /// (`FeedbackLoop.replay(_:)`).
  public static func loop<State>(_ loop: FeedbackLoop<State, Schema.Input>) -> Self {
    .loop(loop, decode: { $0 })
  }

  /// Replays the recorded events, made again by `decode`, into `loop`.
  public static func loop<State, Event>(
    _ loop: FeedbackLoop<State, Event>,
    decode: @escaping @Sendable (Schema.Input) -> Event
  ) -> Self {
    Self { entries in
      let events = entries.compactMap(input(of:)).map(decode)
      return { await loop.replay(events) }
    }
  }

  /// Replays into a reactor whose actions are the schema's inputs: each recorded action, and each
  /// recorded mutation in its place, without calling `mutate(action:)` (`Reactor.replay(_:)`).
  public static func reactor<R: Reactor>(_ reactor: R) -> Self
  where R.Action == Schema.Input, R.Mutation: Decodable {
    .reactor(reactor, decode: { $0 })
  }

  /// Replays the recorded actions, made again by `decode`, into `reactor`, each recorded
  /// mutation in its action's place.
  public static func reactor<R: Reactor>(
    _ reactor: R,
    decode: @escaping @Sendable (Schema.Input) -> R.Action
  ) -> Self where R.Mutation: Decodable {
    Self { (entries) throws(RecordMismatch) in
      var inputs: [ReactorInput<R.Action, R.Mutation>] = []
      inputs.reserveCapacity(entries.count)
      for entry in entries {
        guard let action = input(of: entry).map(decode) else { continue }
        let mutation: R.Mutation?
        do {
          mutation = try entry.mutation(as: R.Mutation.self)
        } catch {
          throw RecordMismatch(
            reason:
              "record #\(entry.sequence) holds a mutation this reactor does not have (\(error))"
          )
        }
        if let mutation {
          inputs.append(.mutation(mutation, cause: action))
        } else {
          inputs.append(.action(action))
        }
      }
      let replayed = inputs
      return { await reactor.replay(replayed) }
    }
  }
}

extension SessionReplayer {
  /// The architecture's input `entry` records, if it records one.
  static func input(of entry: SessionRecording<Schema>.Entry) -> Schema.Input? {
    if case .input(let input) = entry.input { input } else { nil }
  }
}

/// A record that does not fit the service replaying it.
struct RecordMismatch: Error {
  /// Which record, and why.
  var reason: String
}
