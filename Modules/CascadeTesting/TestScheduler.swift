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
/// Observable.just(1).delay(.seconds(5), scheduler: scheduler).subscribe(observer)
/// scheduler.advance(by: .seconds(5))
/// observer.assertEvents([.next(.seconds(5), 1), .completed(.seconds(5))])
/// ```
///
/// Semantics:
/// - Items due at the same time run in the order they were scheduled.
/// - ``advance(to:)`` runs exactly the items due at or before the target, including items
///   scheduled while advancing that fall within the window, then sets the clock to the target.
/// - Moving backwards is a programming error and stops the process.
/// - Cancelled items never run.
/// - Advancing from two threads at once is reported as a test failure.
public final class TestScheduler: CascadeStreams.Scheduler, Clock, @unchecked Sendable {
  // Safety: `state` is only touched with `lock` held; actions run after the lock is released.
  public typealias Instant = SchedulerInstant

  final class Item: @unchecked Sendable {
    // Safety: `isDone` is guarded by the scheduler's lock; the rest is immutable.
    let time: SchedulerInstant
    let sequence: Int
    let action: @Sendable () -> Void
    var isDone = false

    init(time: SchedulerInstant, sequence: Int, action: @escaping @Sendable () -> Void) {
      self.time = time
      self.sequence = sequence
      self.action = action
    }
  }

  private struct State {
    var now: SchedulerInstant = .zero
    var items: [Item] = []
    var nextSequence = 0
    var advancingThread: pthread_t?
  }

  private let lock = LockedValue(State())

  /// Creates a scheduler whose clock reads ``SchedulerInstant/zero``.
  public init() {}

  /// The virtual time.
  public var now: SchedulerInstant { lock.withLock { $0.now } }

  /// The smallest step of the clock: any duration can be represented.
  public var minimumResolution: Duration { .zero }

  /// The number of items waiting to run.
  public var pendingCount: Int { lock.withLock { $0.items.count } }

  /// Schedules `action` at the current virtual time; it runs on the next advance.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    schedule(after: .zero, action)
  }

  /// Schedules `action` `delay` after the current virtual time.
  @discardableResult
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    let item = lock.withLock { state in
      let item = Item(
        time: state.now.advanced(by: max(.zero, delay)),
        sequence: state.nextSequence,
        action: action
      )
      state.nextSequence += 1
      let index = state.items.partitioningIndex { $0.time > item.time }
      state.items.insert(item, at: index)
      return item
    }
    Resources.increment()
    return Disposables.create { [weak self] in
      guard let self else { return }
      let removed = lock.withLock { state -> Bool in
        guard !item.isDone, let index = state.items.firstIndex(where: { $0 === item }) else {
          return false
        }
        item.isDone = true
        state.items.remove(at: index)
        return true
      }
      if removed { Resources.decrement() }
    }
  }

  /// Moves the clock forward by `duration`, running every item due on the way.
  ///
  /// - Precondition: `duration` is not negative.
  public func advance(by duration: Duration = .zero) {
    precondition(duration >= .zero, "TestScheduler cannot move back in time (by \(duration))")
    advance(to: now.advanced(by: duration))
  }

  /// Moves the clock to `instant`, running every item due at or before it.
  ///
  /// - Precondition: `instant` is not before ``now``.
  public func advance(to instant: SchedulerInstant) {
    let start = now
    precondition(instant >= start, "TestScheduler cannot move back in time (to \(instant))")
    enter()
    defer { leave() }
    while let item = takeNext(dueBy: instant) {
      item.action()
    }
    lock.withLock { $0.now = max($0.now, instant) }
  }

  /// Runs every scheduled item, advancing the clock to each, until none is left.
  ///
  /// - Parameter limit: The most items to run, a guard against streams that never go idle
  ///   (such as `interval`); exceeding it is reported as a test failure.
  public func run(limit: Int = 100_000) {
    enter()
    defer { leave() }
    var count = 0
    while let item = takeNext(dueBy: nil) {
      count += 1
      if count > limit {
        reportIssue("TestScheduler.run() ran more than \(limit) items; is a periodic stream left?")
        return
      }
      item.action()
    }
  }

  private func takeNext(dueBy deadline: SchedulerInstant?) -> Item? {
    let item = lock.withLock { state -> Item? in
      guard let first = state.items.first else { return nil }
      if let deadline, first.time > deadline { return nil }
      state.items.removeFirst()
      first.isDone = true
      state.now = max(state.now, first.time)
      return first
    }
    if item != nil { Resources.decrement() }
    return item
  }

  private func enter() {
    let me = pthread_self()
    let other = lock.withLock { state -> pthread_t? in
      if let current = state.advancingThread, pthread_equal(current, me) == 0 { return current }
      state.advancingThread = me
      return nil
    }
    if other != nil {
      reportIssue("TestScheduler advanced from a second thread while another thread advances it")
    }
  }

  private func leave() {
    let me = pthread_self()
    lock.withLock { state in
      if let current = state.advancingThread, pthread_equal(current, me) != 0 {
        state.advancingThread = nil
      }
    }
  }

  // MARK: - Clock

  /// Suspends until the virtual clock reaches `deadline`, or throws `CancellationError` if the
  /// task is cancelled first.
  public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let gate = SleepGate()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        gate.arm(continuation)
        let wait = now.duration(to: deadline)
        let item = schedule(after: wait) { gate.resume(with: .success(())) }
        gate.onCancel { item.dispose() }
      }
    } onCancel: {
      gate.resume(with: .failure(CancellationError()))
    }
  }

  /// Moves the clock forward by `duration`, letting `async` work that sleeps on this clock run
  /// between steps.
  ///
  /// Before each step and at the end it yields to other tasks many times, so that tasks resumed by
  /// a step (or just started) reach their next suspension point before the clock moves on.
  public func advance(by duration: Duration = .zero) async {
    precondition(duration >= .zero, "TestScheduler cannot move back in time (by \(duration))")
    let target = now.advanced(by: duration)
    while true {
      await Self.megaYield()
      guard let item = takeNext(dueBy: target) else { break }
      item.action()
    }
    lock.withLock { $0.now = max($0.now, target) }
    await Self.megaYield()
  }

  /// Runs every scheduled item, letting `async` work run between items, until none is left.
  public func run() async {
    while true {
      await Self.megaYield()
      guard let item = takeNext(dueBy: nil) else { break }
      item.action()
    }
  }

  static func megaYield(count: Int = 20) async {
    for _ in 0..<count {
      await Task.detached(priority: .background) { await Task.yield() }.value
    }
  }
}

/// Resumes a sleeping continuation exactly once, by the clock or by cancellation.
private final class SleepGate: @unchecked Sendable {
  // Safety: all state is guarded by `lock`; continuations resume after the lock is released.
  private struct State {
    var continuation: CheckedContinuation<Void, any Error>?
    var early: Result<Void, any Error>?
    var cancel: (@Sendable () -> Void)?
  }

  private let lock = LockedValue(State())

  func arm(_ continuation: CheckedContinuation<Void, any Error>) {
    let early = lock.withLock { state -> Result<Void, any Error>? in
      if let early = state.early { return early }
      state.continuation = continuation
      return nil
    }
    if let early { continuation.resume(with: early) }
  }

  func onCancel(_ cancel: @escaping @Sendable () -> Void) {
    let cancelNow = lock.withLock { state -> Bool in
      if state.early != nil && state.continuation == nil { return true }
      state.cancel = cancel
      return false
    }
    if cancelNow { cancel() }
  }

  func resume(with result: Result<Void, any Error>) {
    let (continuation, cancel) = lock.withLock { state in
      if state.continuation == nil && state.early == nil {
        state.early = result
        return (nil, nil) as (CheckedContinuation<Void, any Error>?, (@Sendable () -> Void)?)
      }
      defer {
        state.continuation = nil
        state.cancel = nil
      }
      return (state.continuation, state.cancel)
    }
    if case .failure = result { cancel?() }
    continuation?.resume(with: result)
  }
}

extension Array {
  /// The index of the first element for which `belongsInSecondPartition` is true, assuming the
  /// array is partitioned by it.
  fileprivate func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if belongsInSecondPartition(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
