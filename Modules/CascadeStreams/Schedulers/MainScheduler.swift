import Dispatch
import Synchronization

/// A scheduler that runs work on the main queue, which is the main actor's executor.
///
/// Work scheduled while already running on the main queue, with nothing of this scheduler's
/// still waiting there, runs synchronously; otherwise it is enqueued, so work from background
/// threads and from the main queue runs in the order it was scheduled. The "run now" decision
/// depends only on this scheduler's own count of waiting items, not on process-wide state.
///
/// On Linux the main actor may run on a thread other than the main thread; this scheduler asks
/// whether the *main queue* is current, which is right on every platform. Inside an action,
/// `MainActor.assumeIsolated { … }` reaches main-actor state.
public final class MainScheduler: Scheduler {
  /// The shared instance.
  public static let instance = MainScheduler()

  private static let key: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  private let waiting = Atomic<Int>(0)

  /// Creates a main scheduler.
  ///
  /// Each instance keeps its own order of waiting work.
  public init() {
    _ = Self.key
  }

  /// Whether the caller is running on the main queue (and so on the main actor's executor).
  public static var isOnMainQueue: Bool {
    DispatchQueue.getSpecific(key: key) != nil
  }

  /// The time on the continuous clock since the process's first use of a real scheduler.
  public var now: SchedulerInstant { WallTime.now }

  /// Runs `action` now if on the main queue with nothing waiting; otherwise enqueues it.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    let previous = waiting.add(1, ordering: .acquiringAndReleasing).oldValue
    if previous == 0 && Self.isOnMainQueue {
      action()
      waiting.subtract(1, ordering: .releasing)
      return Disposables.empty
    }
    let item = DispatchScheduledItem { [self] in
      waiting.subtract(1, ordering: .releasing)
      action()
    }
    DispatchQueue.main.async { item.run() }
    return Disposables.create { [self] in
      if item.cancel() {
        waiting.subtract(1, ordering: .releasing)
      }
    }
  }

  /// Enqueues `action` on the main queue after `delay`.
  @discardableResult
  public func schedule(
    after delay: Duration,
    _ action: @escaping @Sendable () -> Void
  )
    -> any Disposable
  {
    DispatchQueue.main.enqueue(after: delay, action)
  }
}
