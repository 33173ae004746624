public import Dispatch

/// A scheduler that runs work concurrently on a concurrent dispatch queue.
///
/// Items may overlap. Operators that deliver events through it (``ObservableType/observe(on:)``)
/// still deliver one event at a time to each observer.
public struct ConcurrentDispatchQueueScheduler: DispatchQueueScheduler {
  /// The queue the work runs on.
  public let queue: DispatchQueue

  /// Creates a scheduler on the global concurrent queue of the given quality of service.
  public init(qos: DispatchQoS.QoSClass = .default) {
    queue = .global(qos: qos)
  }

  /// Creates a scheduler on `queue`.
  public init(queue: DispatchQueue) {
    self.queue = queue
  }
}
