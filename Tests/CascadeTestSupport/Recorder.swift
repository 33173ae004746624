import CascadeStreams

/// A thread-safe list that tests append observed values to, and wait on.
public final class Recorder<Value: Sendable>: Sendable {
  private let storage = Watched<[Value]>([])

  /// Creates an empty recorder.
  public init() {}

  /// Appends `value`.
  public func append(_ value: Value) {
    storage.update { $0.append(value) }
  }

  /// Everything appended so far, in order.
  public var values: [Value] { storage.value }

  /// Forgets the values recorded so far.
  public func removeAll() {
    storage.update { $0.removeAll() }
  }

  /// Waits until at least `count` values were recorded; `false` if they were not within
  /// `timeout` (a safety net, see ``Watched``).
  public func wait(forCount count: Int, timeout: Duration = .seconds(60)) async -> Bool {
    await storage.wait(timeout: timeout) { $0.count >= count }
  }

  /// Waits until `condition` holds for the values recorded; `false` if it did not within
  /// `timeout` (a safety net, see ``Watched``).
  public func wait(
    timeout: Duration = .seconds(60),
    until condition: @escaping @Sendable ([Value]) -> Bool
  ) async -> Bool {
    await storage.wait(timeout: timeout, until: condition)
  }

  /// Blocks the calling thread until at least `count` values were recorded.
  public func waitBlocking(forCount count: Int, timeout: Duration = .seconds(60)) -> Bool {
    storage.waitBlocking(timeout: timeout) { $0.count >= count }
  }
}

/// A thread-safe counter that tests can wait on.
public final class Counter: Sendable {
  private let storage = Watched(0)

  /// Creates a counter at zero.
  public init() {}

  /// Adds one; returns the new value.
  @discardableResult
  public func increment() -> Int {
    storage.update { value in
      value += 1
      return value
    }
  }

  /// Subtracts one; returns the new value.
  @discardableResult
  public func decrement() -> Int {
    storage.update { value in
      value -= 1
      return value
    }
  }

  /// The current value.
  public var value: Int { storage.value }

  /// Waits until the count satisfies `condition`; `false` if it did not within `timeout` (a
  /// safety net, see ``Watched``).
  public func wait(
    timeout: Duration = .seconds(60),
    until condition: @escaping @Sendable (Int) -> Bool
  ) async -> Bool {
    await storage.wait(timeout: timeout, until: condition)
  }

  /// Waits until the count reaches at least `target`.
  public func wait(forAtLeast target: Int, timeout: Duration = .seconds(60)) async -> Bool {
    await storage.wait(timeout: timeout) { $0 >= target }
  }
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
