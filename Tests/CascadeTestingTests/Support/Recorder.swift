import CascadeStreams
import Synchronization

/// A thread-safe list that tests append observed values to.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = LockedValue<[Value]>([])

  func append(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  var values: [Value] { storage.withLock { $0 } }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let storage = Atomic<Int>(0)

  func increment() {
    storage.add(1, ordering: .relaxed)
  }

  var value: Int { storage.load(ordering: .relaxed) }
}

/// An error with a message, for streams that fail in tests.
struct TestError: Error, Equatable, CustomStringConvertible {
  let message: String

  init(_ message: String) {
    self.message = message
  }

  var description: String { message }
}

extension Duration {
  /// The virtual instant this long after a scheduler's origin.
  var instant: SchedulerInstant { SchedulerInstant(offset: self) }
}

extension Task where Failure == any Error {
  /// The task's value; cancelling the waiting test (for example by its time limit) cancels the
  /// task too, so a test stuck on a sleep ends instead of hanging.
  var valuePropagatingCancellation: Success {
    get async throws {
      try await withTaskCancellationHandler {
        try await value
      } onCancel: {
        cancel()
      }
    }
  }
}
