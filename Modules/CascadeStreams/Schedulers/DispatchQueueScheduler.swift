public import Dispatch

/// A scheduler that runs work on a dispatch queue, on the continuous clock.
///
/// ``SerialDispatchQueueScheduler`` and ``ConcurrentDispatchQueueScheduler`` conform; conform a
/// type of your own by giving it a `queue`.
public protocol DispatchQueueScheduler: Scheduler {
  /// The queue the work runs on.
  var queue: DispatchQueue { get }
}

extension DispatchQueueScheduler {
  /// The time on the continuous clock since the process's first use of a real scheduler.
  public var now: SchedulerInstant { WallTime.now }

  /// Enqueues `action` on the queue.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    queue.enqueue(action)
  }

  /// Enqueues `action` on the queue after `delay`.
  @discardableResult
  public func schedule(
    after delay: Duration,
    _ action: @escaping @Sendable () -> Void
  )
    -> any Disposable
  {
    queue.enqueue(after: delay, action)
  }
}
