public import CascadeStreams
import IssueReporting

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `TestScheduler` is a `Clock` on the same virtual time as its stream scheduling, so `async`
/// code that sleeps on it and streams scheduled on it advance together.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let effect = Task {
///   try await scheduler.sleep(for: .seconds(2))  // any `some Clock<Duration>` parameter
///   return "done"
/// }
/// try await scheduler.waitForPendingItems(1)  // the sleep is registered, due at 2 s
/// await scheduler.advance(by: .seconds(1))  // the task still sleeps
/// await scheduler.advance(by: .seconds(1))  // the task resumes
/// #expect(try await effect.value == "done")
/// ```
extension TestScheduler: Clock {
  /// The clock's instants are the scheduler's: offsets from its origin.
  public typealias Instant = SchedulerInstant

  /// The smallest step of the clock: any duration can be represented.
  public var minimumResolution: Duration { .zero }

  /// Suspends until the virtual clock reaches `deadline`.
  ///
  /// The sleep is an item on the scheduler like any other: it wakes when an advance reaches
  /// `deadline`, in order with the stream work due at the same time, and it counts in
  /// `Resources.total` while it waits. A deadline at or before ``now`` returns at once.
  ///
  /// - Parameters:
  ///   - deadline: The virtual time to wake at.
  ///   - tolerance: Ignored; virtual time is exact.
  /// - Throws: `CancellationError` if the task is cancelled before the clock reaches `deadline`;
  ///   the waiting item is removed at once.
  public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    if deadline <= now { return }
    let sleeper = Sleeper()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: Sleeper.Continuation) in
        guard sleeper.wait(continuation) else { return }
        let item = schedule(at: deadline, counted: true, wakesTask: true) { sleeper.wake() }
        sleeper.attach(item)
        // The runtime may skip the cancel handler of a task cancelled while the handler is
        // installed (Swift 6.3.1: Tooling/Toolchain/cancellation-handler-race.swift): check again.
        if Task.isCancelled { sleeper.cancel() }
      }
    } onCancel: {
      sleeper.cancel()
    }
  }

  /// Moves the clock forward by `duration`, letting `async` work that sleeps on this clock run
  /// between steps.
  ///
  /// Before the clock moves to a later instant, after an item that resumes a sleeping task, and
  /// at the end, it yields to other tasks many times, so that tasks resumed by an item (or just
  /// started) usually reach their next suspension point, and schedule what they do next, before
  /// the clock moves on. Items due at the same instant run back to back otherwise: the cost of an
  /// advance grows with the instants it crosses, not with the items. Yielding cannot guarantee
  /// that on a loaded machine: for a deterministic test, call
  /// ``TestScheduler/waitForPendingItems(_:)`` before advancing and read a task's results from
  /// its value.
  ///
  /// - Parameter duration: How far to move; zero runs the items due now.
  /// - Precondition: `duration` is not negative.
  public func advance(by duration: Duration = .zero) async {
    precondition(duration >= .zero, "TestScheduler cannot move back in time (by \(duration))")
    await advance(to: now.advanced(by: duration))
  }

  /// Moves the clock to `instant`, letting `async` work that sleeps on this clock run between
  /// steps.
  ///
  /// - Parameter instant: The time to move to.
  /// - Precondition: `instant` is not before ``now``.
  public func advance(to instant: SchedulerInstant) async {
    precondition(instant >= now, "TestScheduler cannot move back in time (to \(instant))")
    await advanceAsync(until: instant, limit: nil, operation: "advance(to:)")
    state.withLock { $0.now = max($0.now, instant) }
    await Self.megaYield()
  }

  /// Runs every scheduled item, letting `async` work run between items, until none is left.
  ///
  /// - Parameter limit: The most items to run, a guard against streams that never go idle;
  ///   exceeding it is reported as a test failure.
  public func run(limit: Int = 100_000) async {
    await advanceAsync(until: nil, limit: limit, operation: "run()")
  }

  private func advanceAsync(until deadline: SchedulerInstant?, limit: Int?, operation: String) async
  {
    let token = state.withLock { state in
      defer { state.nextTask += 1 }
      return state.nextTask
    }
    guard enter(.task(token), operation) else { return }
    defer { leave() }
    var count = 0
    // The instant of the item just run, unless it resumed a task: the next item due at that
    // instant runs without yielding first.
    var sameInstant: SchedulerInstant?
    while true {
      if sameInstant == nil || nextDueTime(dueBy: deadline) != sameInstant {
        await Self.megaYield()
      }
      guard let (item, action) = takeNext(dueBy: deadline) else { return }
      count += 1
      if let limit, count > limit {
        state.withLock { state in
          item.action = action
          state.items.insert(item)
        }
        reportIssue("TestScheduler.run() ran more than \(limit) items; is a periodic stream left?")
        return
      }
      state.withLock { $0.actionThread = pthread_self() }
      run(item, action)
      state.withLock { $0.actionThread = nil }
      sameInstant = item.wakesTask ? nil : item.time
    }
  }

  /// Gives other tasks many chances to run.
  ///
  /// Each chance is a detached task of the default priority that yields once: it queues behind
  /// the work already waiting to run, so that work runs first. (At the background priority, each
  /// chance waited until no work of a higher priority was left: on a machine busy with other
  /// tests, an advance over a few hundred instants took minutes.)
  static func megaYield(count: Int = 20) async {
    for _ in 0..<count {
      await Task.detached { await Task.yield() }.value
    }
  }
}

/// The state of one ``TestScheduler/sleep(until:tolerance:)``: resumes its continuation exactly
/// once, by the clock or by cancellation, and removes the scheduled item on cancellation.
private final class Sleeper: Sendable {
  typealias Continuation = CheckedContinuation<Void, any Error>

  private enum Phase {
    case pending
    case waiting(Continuation)
    case woken
    case cancelled
  }

  private struct State {
    var phase = Phase.pending
    var item: (any Disposable)?
  }

  private let state = LockedValue(State())

  /// Stores the continuation; returns `false` (after resuming it) if cancelled already.
  func wait(_ continuation: Continuation) -> Bool {
    let cancelled = state.withLock { state -> Bool in
      guard case .pending = state.phase else { return true }
      state.phase = .waiting(continuation)
      return false
    }
    if cancelled { continuation.resume(throwing: CancellationError()) }
    return !cancelled
  }

  /// Keeps the scheduled item, to remove it on cancellation; disposes it if cancelled already.
  func attach(_ item: any Disposable) {
    let cancelled = state.withLock { state -> Bool in
      if case .cancelled = state.phase { return true }
      state.item = item
      return false
    }
    if cancelled { item.dispose() }
  }

  /// The clock reached the deadline.
  func wake() {
    let continuation = state.withLock { state -> Continuation? in
      guard case .waiting(let continuation) = state.phase else { return nil }
      state.phase = .woken
      state.item = nil
      return continuation
    }
    continuation?.resume()
  }

  /// The task was cancelled.
  func cancel() {
    let (continuation, item) = state.withLock { state -> (Continuation?, (any Disposable)?) in
      defer {
        state.item = nil
        if case .woken = state.phase {} else { state.phase = .cancelled }
      }
      guard case .waiting(let continuation) = state.phase else { return (nil, nil) }
      return (continuation, state.item)
    }
    item?.dispose()
    continuation?.resume(throwing: CancellationError())
  }
}
