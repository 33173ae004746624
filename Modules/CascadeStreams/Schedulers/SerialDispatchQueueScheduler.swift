public import Dispatch

/// A scheduler that runs work one item at a time, in order, on a dispatch queue of its own.
///
/// The scheduler always owns a private serial queue; given a target queue (even a concurrent
/// one), it targets it, so items never overlap.
public struct SerialDispatchQueueScheduler: DispatchQueueScheduler {
  /// The serial queue the work runs on.
  public let queue: DispatchQueue

  /// Creates a scheduler on a new serial queue.
  ///
  /// - Parameters:
  ///   - label: The queue's label, shown in debuggers and crash reports.
  ///   - qos: The quality of service of the work.
  public init(label: String, qos: DispatchQoS = .default) {
    queue = DispatchQueue(label: label, qos: qos)
  }

  /// Creates a scheduler on a new serial queue that targets `target`, which may be concurrent.
  public init(target: DispatchQueue, label: String = "cascade.serial") {
    queue = DispatchQueue(label: label, target: target)
  }
}
