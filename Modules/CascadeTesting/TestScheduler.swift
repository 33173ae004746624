public import CascadeStreams
import IssueReporting

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A scheduler and clock on virtual time, which moves only when a test says so.
///
/// Streams scheduled on it (`debounce`, `delay`, `timeout`, `interval` …) and `async` code that
/// sleeps on it as a `Clock` share one virtual time, so mixed stream and `async` code is tested
/// without any real time passing.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let observer = scheduler.createObserver(Int.self)
/// let subscription = Observable<Int, Never>.create { observer in
///   scheduler.schedule(after: .seconds(5)) {
///     observer.onNext(1)
///     observer.onCompleted()
///   }
/// }
/// .subscribe(observer)
/// scheduler.advance(by: .seconds(5))
/// observer.assertEvents([.next(.seconds(5), 1), .completed(.seconds(5))])
/// subscription.dispose()
/// ```
///
/// Semantics:
/// - Items due at the same time run in the order they were scheduled.
/// - `advance(to:)` runs exactly the items due at or before the target, including items
///   scheduled while advancing that fall within the window, then sets the clock to the target.
///   While an item runs, ``now`` reads the item's due time.
/// - Moving backwards is a programming error and stops the process.
/// - Cancelled items never run; disposing an item releases its action at once.
/// - Advancing from a second thread while another thread advances is reported as a test failure
///   (through IssueReporting, so under Swift Testing and XCTest alike), and the second call
///   returns without running anything. Scheduling from any thread is fine.
/// - Every waiting item counts in `Resources.total` until it runs or is cancelled, so an item
///   left behind by a test fails the `checksResources` trait.
public final class TestScheduler: CascadeStreams.Scheduler, @unchecked Sendable {
  // Safety: `state` is only touched with its lock held; actions run after the lock is released.

  /// Who is moving the clock: a thread (synchronous advance) or a task (asynchronous advance).
  enum Owner {
    case thread(pthread_t)
    case task(Int)
  }

  struct State {
    var now: SchedulerInstant = .zero
    var items = ScheduledItemHeap()
    var nextSequence = 0
    var nextTask = 0
    var owner: Owner?
    var depth = 0
    /// The thread running an item for an asynchronous advance, so that the item may advance
    /// (reentrantly) from that thread.
    var actionThread: pthread_t?
    /// Tasks in ``TestScheduler/waitForPendingItems(_:)``, by id.
    var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, any Error>)] = [:]
    var nextWaiter = 0
    /// Signalled whenever an item is scheduled (``signalOnSchedule(_:)``).
    var scheduleSignals: [ChangeSignal] = []
  }

  let state = LockedValue(State())

  /// Creates a scheduler whose clock reads `SchedulerInstant.zero`.
  public init() {}

  /// The virtual time.
  public var now: SchedulerInstant { state.withLock { $0.now } }

  /// The number of items waiting to run.
  public var pendingCount: Int { state.withLock { $0.items.liveCount } }

  // MARK: - Scheduling

  /// Schedules `action` at the current virtual time; it runs on the next advance.
  ///
  /// - Returns: A disposable that cancels `action` if it has not started.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    schedule(after: .zero, action)
  }

  /// Schedules `action` `delay` after the current virtual time.
  ///
  /// A negative delay counts as zero; a delay of 100 years or more never comes, as on every
  /// scheduler: `action` is not scheduled, and `run(limit:)` does not reach it.
  ///
  /// - Returns: A disposable that cancels `action` if it has not started.
  @discardableResult
  public func schedule(
    after delay: Duration,
    _ action: @escaping @Sendable () -> Void
  )
    -> any Disposable
  {
    if delay.schedulingNanoseconds == nil { return Disposables.empty }
    return schedule(at: nil, after: delay, counted: true, action)
  }

  /// Schedules `action` at `instant`, or `delay` after the current time when `instant` is `nil`.
  ///
  /// Instants in the past count as now. `wakesTask` marks the item of a sleeping task.
  @discardableResult
  func schedule(
    at instant: SchedulerInstant?,
    after delay: Duration = .zero,
    counted: Bool,
    wakesTask: Bool = false,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledItem {
    let resource = counted ? Resources.increment() : nil
    let (item, ready, signals) = state.withLock { state in
      let due = max(state.now, instant ?? state.now.advanced(by: delay))
      let item = ScheduledItem(
        time: due,
        sequence: state.nextSequence,
        resource: resource,
        wakesTask: wakesTask,
        scheduler: self,
        action: action
      )
      state.nextSequence += 1
      state.items.insert(item)
      return (
        item, state.waiters.isEmpty ? [] : state.takeReadyWaiters(), state.scheduleSignals
      )
    }
    for continuation in ready { continuation.resume() }
    for signal in signals { signal.signal() }
    return item
  }

  /// Signals `signal` each time an item is scheduled from now on.
  ///
  /// A test store on this clock waits on it, so that a `receive` waiting for a command wakes
  /// when the command goes to sleep here, and advances the clock to it.
  func signalOnSchedule(_ signal: ChangeSignal) {
    state.withLock { $0.scheduleSignals.append(signal) }
  }

  func cancel(_ item: ScheduledItem) {
    let cancelled = state.withLock { state -> Bool in
      guard item.action != nil else { return false }
      item.action = nil
      state.items.noteCancelled()
      return true
    }
    if cancelled, let resource = item.resource { Resources.decrement(resource) }
  }

  // MARK: - Advancing

  /// Moves the clock forward by `duration`, running every item due on the way.
  ///
  /// - Parameter duration: How far to move; zero runs the items due now.
  /// - Precondition: `duration` is not negative.
  public func advance(by duration: Duration = .zero) {
    precondition(duration >= .zero, "TestScheduler cannot move back in time (by \(duration))")
    advance(to: now.advanced(by: duration))
  }

  /// Moves the clock to `instant`, running every item due at or before it, then reads `instant`.
  ///
  /// - Parameter instant: The time to move to.
  /// - Precondition: `instant` is not before ``now``.
  public func advance(to instant: SchedulerInstant) {
    let start = now
    precondition(instant >= start, "TestScheduler cannot move back in time (to \(instant))")
    guard enter(.thread(pthread_self()), "advance(to:)") else { return }
    defer { leave() }
    while let (item, action) = takeNext(dueBy: instant) {
      run(item, action)
    }
    state.withLock { $0.now = max($0.now, instant) }
  }

  /// Runs every scheduled item, moving the clock to each, until none is left.
  ///
  /// - Parameter limit: The most items to run, a guard against streams that never go idle
  ///   (such as `interval`); exceeding it is reported as a test failure.
  public func run(limit: Int = 100_000) {
    guard enter(.thread(pthread_self()), "run()") else { return }
    defer { leave() }
    var count = 0
    while let (item, action) = takeNext(dueBy: nil) {
      count += 1
      if count > limit {
        state.withLock { state in
          item.action = action
          state.items.insert(item)
        }
        reportIssue("TestScheduler.run() ran more than \(limit) items; is a periodic stream left?")
        return
      }
      run(item, action)
    }
  }

  /// The due time of the item ``takeNext(dueBy:)`` would take now, if any.
  func nextDueTime(dueBy deadline: SchedulerInstant?) -> SchedulerInstant? {
    state.withLock { state -> SchedulerInstant? in
      guard let first = state.items.peek() else { return nil }
      if let deadline, first.time > deadline { return nil }
      return first.time
    }
  }

  /// Removes the next item due at or before `deadline` (any item if `nil`) and moves the clock to
  /// its time.
  func takeNext(dueBy deadline: SchedulerInstant?) -> (ScheduledItem, @Sendable () -> Void)? {
    state.withLock { state -> (ScheduledItem, @Sendable () -> Void)? in
      guard let first = state.items.peek() else { return nil }
      if let deadline, first.time > deadline { return nil }
      state.items.removeFirst()
      guard let action = first.action else { return nil }
      first.action = nil
      state.now = max(state.now, first.time)
      return (first, action)
    }
  }

  func run(_ item: ScheduledItem, _ action: @Sendable () -> Void) {
    if let resource = item.resource { Resources.decrement(resource) }
    action()
  }

  /// Claims the clock for `owner`; reports and returns `false` if another thread or task holds it.
  func enter(_ owner: Owner, _ operation: String) -> Bool {
    let me = pthread_self()
    let entered = state.withLock { state -> Bool in
      switch (state.owner, owner) {
      case (nil, _):
        state.owner = owner
      case (.thread(let current)?, .thread) where pthread_equal(current, me) != 0:
        break
      case (.task?, .thread) where state.actionThread.map { pthread_equal($0, me) != 0 } == true:
        break
      default:
        return false
      }
      state.depth += 1
      return true
    }
    if !entered {
      reportIssue(
        """
        TestScheduler.\(operation) was called while another thread or task is advancing the \
        same scheduler; advance a TestScheduler from one test thread or task at a time
        """
      )
    }
    return entered
  }

  /// Suspends until at least `count` items wait on the scheduler.
  ///
  /// A task started by a test runs on its own schedule: it may not have reached its
  /// `sleep(for:)` on this clock, or scheduled its stream work, by the time the test advances
  /// the clock, and its deadline would then be measured from a later time. Waiting for its items
  /// first makes the test deterministic:
  ///
  /// ```swift
  /// let effect = Task { try await scheduler.sleep(for: .seconds(2)) }
  /// try await scheduler.waitForPendingItems(1)  // the sleep is registered, due at 2 s
  /// await scheduler.advance(by: .seconds(2))
  /// try await effect.value
  /// ```
  ///
  /// - Parameter count: The number of waiting items to wait for.
  /// - Throws: `CancellationError` if the task is cancelled first (for example by a test's time
  ///   limit).
  public func waitForPendingItems(_ count: Int = 1) async throws {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let ready = state.withLock { state -> Bool in
          if state.items.liveCount >= count { return true }
          state.waiters[id] = (count, continuation)
          return false
        }
        if ready {
          continuation.resume()
        } else if Task.isCancelled {
          resumeWaiter(id, throwing: CancellationError())
        }
      }
    } onCancel: {
      resumeWaiter(id, throwing: CancellationError())
    }
  }

  private func resumeWaiter(_ id: Int, throwing error: any Error) {
    let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
    waiter?.continuation.resume(throwing: error)
  }

  /// Releases one claim taken by ``enter(_:_:)``.
  func leave() {
    state.withLock { state in
      state.depth -= 1
      if state.depth == 0 { state.owner = nil }
    }
  }
}

extension TestScheduler.State {
  /// Removes and returns the waiters whose count of pending items is reached.
  mutating func takeReadyWaiters() -> [CheckedContinuation<Void, any Error>] {
    let live = items.liveCount
    let ready = waiters.filter { $0.value.count <= live }
    for id in ready.keys { waiters[id] = nil }
    return ready.map(\.value.continuation)
  }
}
