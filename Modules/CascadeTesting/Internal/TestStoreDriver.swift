import CascadeStore

/// What a ``TestStore`` needs from the architecture it runs: its state, how to send it an action
/// tagged for the log, how to wait for it, what is in flight, and the words for its failures.
struct TestStoreDriver<State: Sendable, Action: Sendable>: Sendable {
  /// The words a test store's failures use for one architecture.
  struct Vocabulary: Sendable {
    /// What the test store receives: "action", "mutation", "event".
    let received: String
    /// What its effects are called in the list of those still running: "command" for a store,
    /// "effect" for a reactor's operations and streams and a loop's feedback effects.
    let effect: String
    /// Why a `receive` gave up at once: nothing left could send what it waits for.
    let idle: String
    /// The failure of a `send` whose action was not processed.
    let unprocessed: String
  }

  /// The state now.
  let currentState: @Sendable () -> State
  /// Sends an action tagged with a mark, so that the log records its change under the mark.
  let send: @Sendable (Action, UInt64) -> Void
  /// Waits until every input sent so far has been processed.
  let settle: @Sendable () async -> Void
  /// Waits until the architecture is at rest, without keeping it alive: what wakes a wait for
  /// work that ends without sending anything.
  let rest: @Sendable () async -> Void
  /// The effects in flight: commands, and other work (streams, feedback effects).
  let effectsInFlight: @Sendable () -> Int
  /// The commands waiting for the state to allow them.
  let parkedCommandCount: @Sendable () -> Int
  let vocabulary: Vocabulary
}

extension TestStoreDriver {
  /// The driver of an architecture that runs on one `Store` whose inputs are the test store's
  /// actions (a store itself, a feedback loop): the probe on that store, and its drains.
  static func onStore(
    _ store: Store<State, Action>,
    log: TestStoreLog<State, Action, Action>,
    send: @escaping @Sendable (Action, UInt64) -> Void,
    parkedCommandCount: @escaping @Sendable () -> Int,
    vocabulary: Vocabulary
  ) -> TestStoreDriver {
    store.install(probe: log.probe { $0 })
    let handle = store.weakHandle
    return TestStoreDriver(
      currentState: { store.state },
      send: send,
      settle: { await store.settle() },
      rest: { await handle.finish() },
      effectsInFlight: { store.effectsInFlight },
      parkedCommandCount: parkedCommandCount,
      vocabulary: vocabulary
    )
  }
}
