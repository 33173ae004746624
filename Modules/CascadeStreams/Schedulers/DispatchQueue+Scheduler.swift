public import Dispatch

/// A dispatch queue is a scheduler: work runs on the queue, as on a
/// ``ConcurrentDispatchQueueScheduler`` made with it (on a serial queue, one item at a time).
///
/// So a queue can be passed where a ``Scheduler`` is expected, as in Combine
/// (`delay(for: 2, scheduler: DispatchQueue.global())`). Work is always enqueued, also from the
/// queue itself; ``MainScheduler`` instead runs work at once when already on the main queue.
extension DispatchQueue: Scheduler {}

extension Scheduler where Self: DispatchQueue {
  /// The time on the continuous clock since the process's first use of a real scheduler.
  ///
  /// (Declared on ``Scheduler``, not on `DispatchQueue` itself: where Combine is imported,
  /// `queue.now` still means Combine's.)
  public var now: SchedulerInstant { WallTime.now }

  /// Enqueues `action` on the queue.
  ///
  /// - Returns: A disposable that cancels `action` if it has not started.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    enqueue(action)
  }

  /// Enqueues `action` on the queue after `delay`.
  ///
  /// - Returns: A disposable that cancels `action` if it has not started.
  @discardableResult
  public func schedule(
    after delay: Duration,
    _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    enqueue(after: delay, action)
  }
}
