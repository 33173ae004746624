import Dispatch
import Synchronization

/// W7's `plain` column: the store an app could write for itself when its subscribers run on a
/// dispatch queue.
///
/// A state behind a lock, a reducer, and an array of subscriber closures: `send` reduces in
/// place under the lock and posts the new state to `queue` for every subscriber, under the lock
/// so that the posts keep the order of the states whatever thread sends. Every state is posted,
/// none coalesced (the Store's `.everyState` policy, with no library in between); while the
/// subscriber is behind, each post waiting on the queue holds its state. It counts the posts
/// waiting (``backlog``) as the Store counts its deliveries waiting, so both columns are sampled
/// alike. It lives in the benchmark module, so the optimizer specializes it for W7's types, as
/// it would an app's own code.
///
/// The state and the subscribers live in a `Mutex`, which owns them: the class has no mutable
/// stored property of its own, so it is plainly `Sendable`.
final class QueuedPlainStore<State: Sendable, Action>: Sendable {
  /// What the lock guards.
  private struct Guarded {
    var state: State
    var subscribers: [@Sendable (State) -> Void] = []
  }

  private let guarded: Mutex<Guarded>
  private let reducer: @Sendable (inout State, Action) -> Void
  private let queue: DispatchQueue
  private let pending = Atomic<Int>(0)

  init(
    initialState: State,
    queue: DispatchQueue,
    reducer: @escaping @Sendable (inout State, Action) -> Void
  ) {
    guarded = Mutex(Guarded(state: initialState))
    self.queue = queue
    self.reducer = reducer
  }

  /// The current state.
  var currentState: State { guarded.withLock { $0.state } }

  /// How many posts wait on the queue now.
  var backlog: Int { pending.load(ordering: .relaxed) }

  /// Reduces `action` into the state in place, then posts the new state to every subscriber.
  func send(_ action: Action) {
    guarded.withLock { guarded in
      reducer(&guarded.state, action)
      for subscriber in guarded.subscribers { post(guarded.state, to: subscriber) }
    }
  }

  /// Posts the state now, then after every action, to `handler` on the queue.
  func subscribe(_ handler: @escaping @Sendable (State) -> Void) {
    guarded.withLock { guarded in
      guarded.subscribers.append(handler)
      post(guarded.state, to: handler)
    }
  }

  private func post(_ state: State, to handler: @escaping @Sendable (State) -> Void) {
    pending.add(1, ordering: .relaxed)
    queue.async {
      self.pending.subtract(1, ordering: .relaxed)
      handler(state)
    }
  }
}
