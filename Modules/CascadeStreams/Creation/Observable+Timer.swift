import Synchronization

extension Observable where Element == Int {
  /// A stream that emits `0` after `dueTime`, then, with a `period`, `1`, `2` … every `period`.
  ///
  /// Without a period it completes right after the `0`; with one it never completes, so dispose
  /// of it when done. Each tick is planned from the first one, so the period does not drift.
  ///
  /// ```swift
  /// Observable.timer(.seconds(5), scheduler: scheduler)  // 0 at 5 s, completed at 5 s
  /// Observable.timer(.seconds(5), period: .seconds(1), scheduler: scheduler)
  /// // 0 at 5 s, 1 at 6 s, 2 at 7 s …
  /// ```
  ///
  /// - Parameters:
  ///   - dueTime: The wait before the first value.
  ///   - period: The time between later values, positive; `nil` for a single value.
  ///   - scheduler: The scheduler that runs the timer and delivers the values.
  /// - Returns: A stream of the tick numbers, from 0.
  public static func timer(
    _ dueTime: Duration,
    period: Duration? = nil,
    scheduler: some Scheduler
  ) -> Observable {
    makeTimer(dueTime, period: period, scheduler: scheduler)
  }

  /// A stream that emits `0`, `1`, `2` … every `period`, starting one `period` after
  /// subscription; it never completes.
  ///
  /// ```swift
  /// Observable.interval(.seconds(1), scheduler: scheduler)  // 0 at 1 s, 1 at 2 s …
  /// ```
  ///
  /// - Parameters:
  ///   - period: The time between values, positive.
  ///   - scheduler: The scheduler that runs the timer and delivers the values.
  /// - Returns: A stream of the tick numbers, from 0.
  public static func interval(_ period: Duration, scheduler: some Scheduler) -> Observable {
    makeTimer(period, period: period, scheduler: scheduler)
  }

  static func makeTimer(
    _ dueTime: Duration,
    period: Duration?,
    scheduler: any Scheduler
  ) -> Observable {
    if let period {
      precondition(period > .zero, "a timer's period must be positive")
    }
    return Observable(unchecked: { observer in
      TimerSink(downstream: observer).run(dueTime, period: period, scheduler: scheduler)
    })
  }
}

// Timers cannot fail: these overloads let `Observable.interval(.seconds(1), scheduler: s)` infer
// `Failure == Never` when nothing else names the failure type.
extension Observable where Element == Int, Failure == Never {
  /// A stream that emits `0` after `dueTime`, then, with a `period`, `1`, `2` … every `period`;
  /// it cannot fail.
  ///
  /// Without a period it completes right after the `0`; with one it never completes.
  ///
  /// - Parameters:
  ///   - dueTime: The wait before the first value.
  ///   - period: The time between later values, positive; `nil` for a single value.
  ///   - scheduler: The scheduler that runs the timer and delivers the values.
  /// - Returns: A stream of the tick numbers, from 0.
  public static func timer(
    _ dueTime: Duration,
    period: Duration? = nil,
    scheduler: some Scheduler
  ) -> Observable {
    makeTimer(dueTime, period: period, scheduler: scheduler)
  }

  /// A stream that emits `0`, `1`, `2` … every `period`, starting one `period` after
  /// subscription; it never completes and cannot fail.
  ///
  /// - Parameters:
  ///   - period: The time between values, positive.
  ///   - scheduler: The scheduler that runs the timer and delivers the values.
  /// - Returns: A stream of the tick numbers, from 0.
  public static func interval(_ period: Duration, scheduler: some Scheduler) -> Observable {
    makeTimer(period, period: period, scheduler: scheduler)
  }
}

/// The subscription behind ``Observable/timer(_:period:scheduler:)`` and
/// ``Observable/interval(_:scheduler:)``.
private final class TimerSink<Failure: Error>: Sink<Int, Failure>, @unchecked Sendable {
  // Safety: `ticks` is atomic; ticks of one timer run one after another.
  private let ticks = Atomic<Int>(0)

  func run(_ dueTime: Duration, period: Duration?, scheduler: any Scheduler) -> any Disposable {
    if let period {
      upstream.insert(
        scheduler.schedulePeriodic(after: dueTime, period: period) { [self] in
          forward(.next(ticks.add(1, ordering: .relaxed).oldValue))
        }
      )
    } else {
      upstream.insert(
        scheduler.schedule(after: dueTime) { [self] in
          forward(.next(0))
          forward(.completed)
        }
      )
    }
    return self
  }
}
