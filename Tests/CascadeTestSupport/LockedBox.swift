import CascadeStreams

/// A lock-protected mutable box for tests that wire a store into its own closures.
public final class LockedBox<Value: Sendable>: Sendable {
  private let storage: LockedValue<Value>

  /// Creates a box holding `value`.
  public init(_ value: Value) {
    storage = LockedValue(value)
  }

  /// The value, read or replaced under the lock.
  public var value: Value {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }
}
