import CascadeStreams

/// Values appended from any thread, read back in order.
final class Journal<Value: Sendable>: Sendable {
  private let storage = LockedValue<[Value]>([])

  /// Every value, in the order appended.
  var values: [Value] { storage.withLock { $0 } }

  func append(_ value: Value) {
    storage.withLock { $0.append(value) }
  }
}
