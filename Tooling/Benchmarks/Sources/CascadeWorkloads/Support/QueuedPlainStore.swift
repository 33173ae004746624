import Dispatch
import Foundation
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
final class QueuedPlainStore<State: Sendable, Action>: @unchecked Sendable {
  // Safety: `state` and `subscribers` are guarded by `lock`; `pending` is atomic; `reducer` and
  // `queue` are immutable, and `reducer` is only called with `lock` held.
  private let lock = NSLock()
  private var state: State
  private var subscribers: [@Sendable (State) -> Void] = []
  private let reducer: (inout State, Action) -> Void
  private let queue: DispatchQueue
  private let pending = Atomic<Int>(0)

  init(
    initialState: State,
    queue: DispatchQueue,
    reducer: @escaping (inout State, Action) -> Void
  ) {
    state = initialState
    self.queue = queue
    self.reducer = reducer
  }

  /// The current state.
  var currentState: State { lock.withLock { state } }

  /// How many posts wait on the queue now.
  var backlog: Int { pending.load(ordering: .relaxed) }

  /// Reduces `action` into the state in place, then posts the new state to every subscriber.
  func send(_ action: Action) {
    lock.withLock {
      reducer(&state, action)
      for subscriber in subscribers { post(state, to: subscriber) }
    }
  }

  /// Posts the state now, then after every action, to `handler` on the queue.
  func subscribe(_ handler: @escaping @Sendable (State) -> Void) {
    lock.withLock {
      subscribers.append(handler)
      post(state, to: handler)
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
