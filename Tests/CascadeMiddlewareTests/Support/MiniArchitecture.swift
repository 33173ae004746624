import CascadeMiddleware
import CascadeStore
import CascadeStreams

/// The smallest architecture that runs a ``MiddlewareStack`` the way Store, Reactor and Feedback
/// do: intercept, reduce, process; dispatched inputs queued behind the current one.
///
/// Inputs sent while one is being processed (from a middleware) are appended to a queue and
/// reduced once the current one has been fully processed, never recursively.
final class MiniArchitecture<Input: Sendable, State: Sendable>: Sendable {
  private struct Storage {
    var state: State
    var sequence: UInt64 = 0
    var queue: [Input] = []
    var draining = false
  }

  private let storage: LockedValue<Storage>
  private let stack: MiddlewareStack<Input, State>
  private let reduce: @Sendable (inout State, Input) -> Void
  private let mutation: @Sendable (Input) -> (any Sendable)?
  private let now: @Sendable () -> SchedulerInstant

  init(
    state: State,
    middlewares: [any Middleware<Input, State>],
    mutation: @escaping @Sendable (Input) -> (any Sendable)? = { _ in nil },
    now: @escaping @Sendable () -> SchedulerInstant = { .zero },
    reduce: @escaping @Sendable (inout State, Input) -> Void
  ) {
    storage = LockedValue(Storage(state: state))
    stack = MiddlewareStack(middlewares)
    self.reduce = reduce
    self.mutation = mutation
    self.now = now
  }

  var state: State { storage.withLock { $0.state } }

  func send(_ input: Input) {
    let drains = storage.withLock { storage in
      storage.queue.append(input)
      if storage.draining { return false }
      storage.draining = true
      return true
    }
    guard drains else { return }
    while let next = dequeue() { run(next) }
  }

  private func dequeue() -> Input? {
    storage.withLock { storage in
      guard !storage.queue.isEmpty else {
        storage.draining = false
        return nil
      }
      return storage.queue.removeFirst()
    }
  }

  private func run(_ sent: Input) {
    let before = state
    guard let input = stack.intercept(sent, state: before) else { return }
    var after = before
    reduce(&after, input)
    let sequence = storage.withLock { storage in
      storage.state = after
      storage.sequence += 1
      return storage.sequence
    }
    stack.process(
      MiddlewareRecord(
        input: input,
        mutation: mutation(input),
        stateBefore: stack.wantsStateBefore ? before : nil,
        state: after,
        sequence: sequence,
        time: now(),
        dispatcher: MiddlewareDispatcher { [weak self] in self?.send($0) }
      )
    )
  }
}
