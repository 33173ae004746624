public import Dispatch

/// A scheduler that runs work one item at a time, in order, on a dispatch queue of its own.
///
/// The scheduler always owns a private serial queue; given a target queue (even a concurrent
/// one), it targets it, so items never overlap.
public struct SerialDispatchQueueScheduler: Scheduler {
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

  /// The time on the continuous clock since the process's first use of a real scheduler.
  public var now: SchedulerInstant { WallTime.now }

  /// Enqueues `action` on the queue.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    queue.schedule(action)
  }

  /// Enqueues `action` on the queue after `delay`.
  @discardableResult
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    queue.schedule(after: delay, action)
  }
}

/// A scheduler that runs work concurrently on a concurrent dispatch queue.
///
/// Items may overlap. Operators that deliver events through it (``ObservableType/observe(on:)``)
/// still deliver one event at a time to each observer.
public struct ConcurrentDispatchQueueScheduler: Scheduler {
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

  /// The time on the continuous clock since the process's first use of a real scheduler.
  public var now: SchedulerInstant { WallTime.now }

  /// Enqueues `action` on the queue.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    queue.schedule(action)
  }

  /// Enqueues `action` on the queue after `delay`.
  @discardableResult
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    queue.schedule(after: delay, action)
  }
}
