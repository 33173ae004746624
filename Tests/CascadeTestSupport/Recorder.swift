import CascadeStreams
import Synchronization

/// A thread-safe list that tests append observed values to.
public final class Recorder<Value: Sendable>: Sendable {
  private let storage = LockedValue<[Value]>([])

  /// Creates an empty recorder.
  public init() {}

  /// Appends `value`.
  public func append(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  /// Everything appended so far, in order.
  public var values: [Value] { storage.withLock { $0 } }

  /// Forgets the values recorded so far.
  public func removeAll() {
    storage.withLock { $0.removeAll() }
  }
}

/// A thread-safe counter.
public final class Counter: Sendable {
  private let storage = Atomic<Int>(0)

  /// Creates a counter at zero.
  public init() {}

  /// Adds one; returns the new value.
  @discardableResult
  public func increment() -> Int {
    storage.add(1, ordering: .relaxed).newValue
  }

  /// Subtracts one; returns the new value.
  @discardableResult
  public func decrement() -> Int {
    storage.subtract(1, ordering: .relaxed).newValue
  }

  /// The current value.
  public var value: Int { storage.load(ordering: .relaxed) }
}

/// An error with a message, for streams and commands that fail in tests.
public struct TestError: Error, Equatable, CustomStringConvertible {
  /// What went wrong.
  public let message: String

  /// Creates an error with `message`.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
