/// Where and when stream work runs.
///
/// Every scheduler has a notion of time (``now``) and can run work now or after a delay. Time-based
/// operators (``ObservableType/debounce(_:scheduler:)``, ``ObservableType/delay(_:scheduler:)``,
/// ``ObservableType/timeout(_:scheduler:)`` …) read time and schedule only through this protocol,
/// so a virtual-time scheduler (CascadeTesting's `TestScheduler`) drives them without real time.
///
/// Implementations: ``ImmediateScheduler``, ``MainScheduler``, ``SerialDispatchQueueScheduler``,
/// ``ConcurrentDispatchQueueScheduler``, and `DispatchQueue` itself (as in Combine).
public protocol Scheduler: Sendable {
  /// The scheduler's current time.
  var now: SchedulerInstant { get }

  /// Runs `action` as soon as the scheduler allows.
  ///
  /// - Returns: A disposable that cancels `action` if it has not started.
  @discardableResult
  func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable

  /// Runs `action` once `delay` has passed on this scheduler's clock.
  ///
  /// A negative delay means now. A delay of 100 years or more means never: `action` is not
  /// scheduled (converting such a delay to a deadline would overflow; every scheduler here
  /// saturates instead of trapping).
  ///
  /// - Returns: A disposable that cancels `action` if it has not started.
  @discardableResult
  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable
}

extension Scheduler {
  /// Runs `action` after `delay`, then every `period`, until the returned disposable is disposed.
  ///
  /// Each run is scheduled from the planned time of the previous one, not from when it actually
  /// ran, so periods do not drift.
  @discardableResult
  public func schedulePeriodic(
    after delay: Duration,
    period: Duration,
    _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    precondition(period > .zero, "schedulePeriodic requires a positive period")
    let serial = SerialDisposable()
    let start = now.advanced(by: delay)
    @Sendable func arm(_ tick: Int) {
      let due = start.advanced(by: period * tick)
      let wait = max(.zero, now.duration(to: due))
      // The run's slot is in place before the run is scheduled: on a concurrent scheduler a late
      // run starts at once, elsewhere, and arms the next one, whose slot must not be replaced by
      // this one's (which would cancel the next run and end the timer).
      let slot = SingleAssignmentDisposable()
      serial.replace(with: slot)
      slot.setDisposable(
        schedule(after: wait) {
          guard !serial.isDisposed else { return }
          action()
          arm(tick + 1)
        }
      )
    }
    arm(0)
    return serial
  }
}
