#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A scheduler that runs work at once, on the calling thread.
///
/// Delayed work blocks the calling thread for the delay, then runs; use it only where that is
/// wanted (tests of synchronous code, command-line tools).
public struct ImmediateScheduler: Scheduler {
  /// The shared instance.
  public static let instance = ImmediateScheduler()

  /// Creates an immediate scheduler.
  public init() {}

  /// The time on the continuous clock since the process's first use of a real scheduler.
  public var now: SchedulerInstant { WallTime.now }

  /// Runs `action` now.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    action()
    return Disposables.empty
  }

  /// Blocks for `delay`, then runs `action`; a delay of 100 years or more never ends, so
  /// `action` is not run (and nothing blocks).
  @discardableResult
  public func schedule(
    after delay: Duration,
    _ action: @escaping @Sendable () -> Void
  )
    -> any Disposable
  {
    // A delay of 100 years or more never comes: the action never runs (see `longestDelay`).
    guard let nanoseconds = delay.schedulingNanoseconds else { return Disposables.empty }
    if nanoseconds > 0 {
      var request = timespec(
        tv_sec: nanoseconds / 1_000_000_000,
        tv_nsec: nanoseconds % 1_000_000_000
      )
      var remaining = timespec()
      while nanosleep(&request, &remaining) != 0 { request = remaining }
    }
    action()
    return Disposables.empty
  }
}
