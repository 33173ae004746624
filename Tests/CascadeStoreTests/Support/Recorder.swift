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

  @discardableResult
  func increment() -> Int {
    storage.add(1, ordering: .relaxed).newValue
  }

  @discardableResult
  func decrement() -> Int {
    storage.subtract(1, ordering: .relaxed).newValue
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
