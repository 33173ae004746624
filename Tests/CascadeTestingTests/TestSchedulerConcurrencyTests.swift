import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Synchronization
import Testing

/// The scheduler used from several threads and tasks: the diagnosis of concurrent advancing, and
/// the `Clock` side, where tasks on the cooperative pool sleep on virtual time.
@Suite(.checksResources, .timeLimit(.minutes(5)))
struct TestSchedulerConcurrencyTests {
  // AT-46: advancing from a second thread while another thread advances is diagnosed, and the
  // second call runs nothing.
  @Test func advancingFromASecondThreadIsReported() async {
    // The semaphores' timeouts only turn a hang into a failure: each wait ends on its signal.
    let safety = DispatchTimeInterval.seconds(60)
    let scheduler = TestScheduler()
    let inside = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let ran = Recorder<String>()
    scheduler.schedule(after: .seconds(1)) {
      ran.append("blocking item")
      inside.signal()
      _ = resume.wait(timeout: .now() + safety)
    }
    scheduler.schedule(after: .seconds(2)) { ran.append("later item") }
    DispatchQueue.global().async {
      scheduler.advance(by: .seconds(1))
      finished.signal()
    }
    #expect(await onOwnThread { inside.wait(timeout: .now() + safety) == .success })
    withKnownIssue {
      scheduler.advance(by: .seconds(5))
    } matching: { issue in
      issue.description.contains("another thread or task is advancing")
    }
    resume.signal()
    #expect(await onOwnThread { finished.wait(timeout: .now() + safety) == .success })
    #expect(ran.values == ["blocking item"])
    #expect(scheduler.now.offset == .seconds(1))
    // Taking turns is fine.
    await scheduler.advance(by: .seconds(1))
    #expect(ran.values == ["blocking item", "later item"])
  }

  @Test func schedulingFromOtherThreadsWhileAdvancingIsFine() async {
    let scheduler = TestScheduler()
    let ran = Counter()
    @Sendable func scheduleSteps(_: Int) {
      for step in 0..<250 {
        scheduler.schedule(after: .milliseconds(step)) { ran.increment() }
      }
    }
    // Four threads schedule before the clock moves, four more while it advances (threads of
    // their own: the cooperative pool is never blocked).
    #expect(await runOnThreads(4, scheduleSteps))
    async let whileAdvancing = runOnThreads(4, scheduleSteps)
    for _ in 0..<10 { await scheduler.advance(by: .milliseconds(10)) }
    #expect(await whileAdvancing)
    await scheduler.advance(by: .seconds(1))
    #expect(ran.value == 2_000)
    #expect(scheduler.pendingCount == 0)
  }

  // The Clock: a task sleeping 2 s on the scheduler resumes only once an advance reaches 2 s.
  @Test func sleepResumesOnlyAtTheDeadline() async throws {
    let scheduler = TestScheduler()
    let woke = Recorder<Duration>()
    let sleeper = Task {
      try await scheduler.sleep(for: .seconds(2))
      woke.append(scheduler.now.offset)
    }
    try await scheduler.waitForPendingItems(1)
    await scheduler.advance(by: .seconds(1))
    #expect(woke.values.isEmpty)
    #expect(scheduler.pendingCount == 1)
    await scheduler.advance(by: .seconds(1))
    #expect(scheduler.pendingCount == 0)
    try await sleeper.valuePropagatingCancellation
    #expect(woke.values == [.seconds(2)])
  }

  @Test func worksAsAnyClock() async throws {
    func effect(clock: some Clock<Duration>) async throws -> String {
      try await clock.sleep(for: .seconds(3))
      return "done"
    }
    let scheduler = TestScheduler()
    let task = Task { try await effect(clock: scheduler) }
    try await scheduler.waitForPendingItems()
    await scheduler.advance(by: .seconds(3))
    #expect(try await task.valuePropagatingCancellation == "done")
  }

  @Test func sleepingUntilThePastReturnsAtOnce() async throws {
    let scheduler = TestScheduler()
    await scheduler.advance(by: .seconds(5))
    try await scheduler.sleep(until: SchedulerInstant(offset: .seconds(3)))
    try await scheduler.sleep(for: .zero)
    #expect(scheduler.pendingCount == 0)
  }

  // The Clock: cancelling a sleeping task resumes it with CancellationError and removes its item
  // (the checksResources trait sees the count balanced).
  @Test func cancellingASleepThrowsAndRemovesTheItem() async throws {
    let scheduler = TestScheduler()
    let sleeper = Task { try await scheduler.sleep(for: .seconds(2)) }
    try await scheduler.waitForPendingItems(1)
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(scheduler.pendingCount == 0)
    await scheduler.advance(by: .seconds(5))
  }

  @Test func sleepingInACancelledTaskThrowsAtOnce() async {
    let scheduler = TestScheduler()
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await scheduler.sleep(for: .seconds(2))
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(scheduler.pendingCount == 0)
  }

  @Test func waitingForPendingItemsIsCancellable() async {
    let scheduler = TestScheduler()
    let waiter = Task { try await scheduler.waitForPendingItems(3) }
    scheduler.schedule {}
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    await scheduler.advance()
  }

  // An async effect sleeping on the scheduler as a Clock and a stream scheduled on it advance on
  // one virtual time.
  @Test func asyncEffectsAndStreamsShareOneClock() async throws {
    let scheduler = TestScheduler()
    let log = Recorder<(String, Duration)>()
    let effect = Task {
      try await scheduler.sleep(for: .seconds(2))
      log.append(("effect woke", scheduler.now.offset))
      try await scheduler.sleep(for: .seconds(2))
      log.append(("effect woke again", scheduler.now.offset))
    }
    let delayed = Observable<String, Never>.create { observer in
      scheduler.schedule(after: .seconds(3)) {
        observer.onNext("delayed")
        observer.onCompleted()
      }
    }
    let observer = scheduler.createObserver(String.self)
    let subscription = delayed.subscribe(observer)
    let logging = delayed.subscribe(onNext: { log.append(($0, scheduler.now.offset)) })
    // The two stream items and the effect's first sleep.
    try await scheduler.waitForPendingItems(3)

    await scheduler.advance(by: .seconds(1))
    #expect(log.values.isEmpty)
    await scheduler.advance(by: .seconds(1))
    // The stream items and the effect's second sleep, due at 4 s.
    try await scheduler.waitForPendingItems(3)
    await scheduler.advance(by: .seconds(2))
    try await effect.valuePropagatingCancellation
    #expect(log.values.map(\.0) == ["effect woke", "delayed", "effect woke again"])
    #expect(log.values.map(\.1) == [.seconds(2), .seconds(3), .seconds(4)])
    observer.assertEvents([.next(.seconds(3), "delayed"), .completed(.seconds(3))])
    subscription.dispose()
    logging.dispose()
  }

  @Test func asyncRunDrainsStreamsAndWakesSleepers() async throws {
    let scheduler = TestScheduler()
    let effect = Task {
      try await scheduler.sleep(for: .seconds(10))
      return "woke"
    }
    let ran = Recorder<Duration>()
    scheduler.schedule(after: .seconds(30)) { ran.append(scheduler.now.offset) }
    try await scheduler.waitForPendingItems(2)
    await scheduler.run()
    #expect(try await effect.valuePropagatingCancellation == "woke")
    #expect(ran.values == [.seconds(30)])
    #expect(scheduler.now.offset == .seconds(30))
  }
}
