/// A point in a scheduler's time: the duration elapsed since the scheduler's origin.
///
/// Real schedulers measure from a process-wide origin on the continuous clock; a virtual-time
/// scheduler starts at ``zero`` and moves only when told. `SchedulerInstant` is also the `Instant`
/// of CascadeTesting's `TestScheduler` clock, so streams and `async` code share one virtual time.
public struct SchedulerInstant: InstantProtocol, Sendable, Hashable, Comparable {
  /// The time elapsed since the scheduler's origin.
  public var offset: Duration

  /// Creates the instant `offset` after the origin.
  public init(offset: Duration) {
    self.offset = offset
  }

  /// The origin.
  public static let zero = SchedulerInstant(offset: .zero)

  /// The instant `duration` later.
  public func advanced(by duration: Duration) -> SchedulerInstant {
    SchedulerInstant(offset: offset + duration)
  }

  /// The duration from this instant to `other`.
  public func duration(to other: SchedulerInstant) -> Duration {
    other.offset - offset
  }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool {
    lhs.offset < rhs.offset
  }
}

extension SchedulerInstant: CustomStringConvertible {
  /// The offset, such as `1.5 seconds`.
  public var description: String { "\(offset)" }
}

/// The origin of real schedulers' time: a moment on the continuous clock taken once per process.
enum WallTime {
  static let origin = ContinuousClock.now

  static var now: SchedulerInstant {
    SchedulerInstant(offset: origin.duration(to: ContinuousClock.now))
  }
}
