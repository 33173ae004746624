public import Dispatch

/// Where a ``Store`` processes inputs, chosen when it is created.
///
/// A main-actor store whose isolation the compiler checks is ``MainStore``.
public enum StoreIsolation: Sendable {
  /// On the thread that sends, serialized with a lock: the first sender processes, and inputs
  /// sent meanwhile from other threads are queued for it. `send` returns after the input (and
  /// everything queued behind it) has been processed, unless another thread was processing. No
  /// run loop is needed. The default.
  case callerThread
  /// On a serial dispatch queue of the store's own; `send` enqueues and returns at once.
  case queue(DispatchQueue)
  /// On the main queue (the main actor's executor): synchronously when sent from the main
  /// queue, otherwise enqueued there. ``MainStore`` uses it.
  case mainQueue

  /// A new serial queue with `label`.
  public static func serialQueue(label: String, qos: DispatchQoS = .default) -> StoreIsolation {
    .queue(DispatchQueue(label: label, qos: qos))
  }
}
