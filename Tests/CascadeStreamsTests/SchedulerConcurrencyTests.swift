import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Foundation
import Synchronization
import Testing

/// Real-thread tests of the schedulers and of the operators that hop threads; run under
/// ThreadSanitizer in CI.
///
/// A test that waits for work on dispatch's global queues (a concurrent scheduler, a timer)
/// awaits a ``Signal`` instead of blocking its thread: on Linux the cooperative pool runs on those
/// queues, and a blocked pool thread could starve the very work it waits for. The tests that
/// block wait for work on serial queues of their own, whose threads dispatch always provides.
@Suite(.checksResources)
struct SchedulerConcurrencyTests {
  /// Counts callers inside a region and remembers the most there ever were at once.
  final class OverlapProbe: Sendable {
    private let inside = Atomic<Int>(0)
    private let most = Atomic<Int>(0)

    func enter() {
      let now = inside.add(1, ordering: .acquiringAndReleasing).newValue
      most.max(now, ordering: .relaxed)
    }

    func exit() {
      inside.subtract(1, ordering: .acquiringAndReleasing)
    }

    var maximum: Int { most.load(ordering: .relaxed) }
  }

  /// Waits for `semaphore` off the cooperative pool (other tests' tasks need its threads);
  /// `false` after the safety net.
  private func wait(_ semaphore: DispatchSemaphore) async -> Bool {
    await onOwnThread { semaphore.wait(timeout: .now() + .seconds(60)) == .success }
  }

  // MARK: AT-07

  enum Enqueued: CaseIterable, Sendable {
    case value, error, completion
  }

  // AT-07: with the first callback blocked and an event enqueued behind it, dispose, then
  // unblock: the enqueued event is never delivered.
  @Test(arguments: Enqueued.allCases)
  func observeOnDisposeIsABarrier(_ enqueued: Enqueued) async {
    let scheduler = SerialDispatchQueueScheduler(label: "at07.barrier")
    let subject = PublishSubject<Int, TestError>()
    let received = Recorder<StreamEvent<Int, TestError>>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let subscription = subject.observe(on: scheduler).subscribe(
      AnyObserver { event in
        received.append(event)
        if event == .next(1) {
          entered.signal()
          // No timeout: every path of the test signals `release`, and a machine busy with
          // other work may take longer than any bound to get there (a 30 s one failed CI
          // under load).
          release.wait()
        }
      }
    )
    subject.onNext(1)
    #expect(await wait(entered))
    switch enqueued {
    case .value: subject.onNext(2)
    case .error: subject.onError(TestError("late"))
    case .completion: subject.onCompleted()
    }
    subscription.dispose()
    release.signal()
    scheduler.queue.sync {}
    #expect(received.values == [.next(1)])
  }

  // AT-07: the same through the closure-based subscribe, which the library's `subscribe` returns.
  @Test func observeOnDisposeIsABarrierForClosureSubscribers() async {
    let scheduler = SerialDispatchQueueScheduler(label: "at07.closure")
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let completions = Counter()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let subscription = subject.observe(on: scheduler).subscribe(
      onNext: { value in
        received.append(value)
        if value == 1 {
          entered.signal()
          release.wait()
        }
      },
      onCompleted: { completions.increment() }
    )
    subject.onNext(1)
    #expect(await wait(entered))
    subject.onNext(2)
    subject.onCompleted()
    subscription.dispose()
    release.signal()
    scheduler.queue.sync {}
    #expect(received.values == [1])
    #expect(completions.value == 0)
  }

  // AT-07: dispose called on the delivery queue itself: nothing is delivered after it returns.
  @Test func observeOnDisposeOnTheDeliveryQueue() async {
    let scheduler = SerialDispatchQueueScheduler(label: "at07.on-queue")
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<StreamEvent<Int, Never>>()
    let subscription = subject.observe(on: scheduler).subscribe(AnyObserver { received.append($0) })
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let disposedOnQueue = Atomic<Bool>(false)
    scheduler.schedule {
      entered.signal()
      release.wait()
      subscription.dispose()
      disposedOnQueue.store(true, ordering: .relaxed)
    }
    #expect(await wait(entered))
    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()
    release.signal()
    scheduler.queue.sync {}
    let disposed = disposedOnQueue.load(ordering: .relaxed)
    #expect(disposed)
    #expect(received.values.isEmpty)
  }

  // AT-07: dispose from inside a callback on the delivery queue stops delivery at once.
  @Test func observeOnDisposeFromTheCallback() {
    let scheduler = SerialDispatchQueueScheduler(label: "at07.callback")
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<StreamEvent<Int, Never>>()
    let subscription = SingleAssignmentDisposable()
    subscription.setDisposable(
      subject.observe(on: scheduler).subscribe(
        AnyObserver { event in
          received.append(event)
          subscription.dispose()
        }
      )
    )
    for value in 1...100 { subject.onNext(value) }
    subject.onCompleted()
    scheduler.queue.sync {}
    #expect(received.values == [.next(1)])
  }

  // MARK: AT-09

  // AT-09: a serial scheduler over a concurrent queue never runs two items at once, and runs them
  // in order.
  @Test func serialSchedulerOverAConcurrentQueueNeverOverlaps() async {
    let target = DispatchQueue(label: "at09.concurrent", attributes: .concurrent)
    let scheduler = SerialDispatchQueueScheduler(target: target, label: "at09.serial")
    let probe = OverlapProbe()
    let order = Recorder<Int>()
    let group = DispatchGroup()
    for index in 0..<1_000 {
      group.enter()
      scheduler.schedule {
        probe.enter()
        order.append(index)
        probe.exit()
        group.leave()
      }
    }
    // Unrelated work on the same concurrent queue keeps it busy meanwhile.
    for _ in 0..<100 { target.async(group: group) {} }
    let done = Signal()
    group.notify(queue: target) { done.fire() }
    #expect(await done.wait())
    #expect(probe.maximum == 1)
    #expect(order.values == Array(0..<1_000))
  }

  // AT-09: work scheduled from a background thread and then from the main queue runs in the order
  // it was scheduled.
  @Test func mainSchedulerKeepsEnqueueOrderFromBackgroundThenMain() async {
    let scheduler = MainScheduler()
    let log = Recorder<String>()
    let ranSynchronously = await MainActor.run {
      let scheduled = DispatchSemaphore(value: 0)
      // A thread of its own: the main thread blocks until it has scheduled.
      Thread {
        scheduler.schedule { log.append("background") }
        scheduled.signal()
      }
      .start()
      _ = scheduled.wait(timeout: .now() + .seconds(30))
      scheduler.schedule { log.append("main") }
      return !log.values.isEmpty
    }
    #expect(!ranSynchronously)
    #expect(await log.wait(forCount: 2))
    #expect(log.values == ["background", "main"])
  }

  // MARK: Operators on real threads

  // AT-03: observe(on:) a concurrent scheduler serializes deliveries, keeping each sender's order.
  @Test func observeOnAConcurrentSchedulerNeverOverlaps() async {
    let subject = PublishSubject<Int, Never>()
    let probe = OverlapProbe()
    let received = Recorder<Int>()
    let done = Signal()
    let senders = 8
    let perSender = 1_000
    let subscription = subject.observe(on: ConcurrentDispatchQueueScheduler()).subscribe(
      onNext: { value in
        probe.enter()
        received.append(value)
        probe.exit()
        if received.values.count == senders * perSender { done.fire() }
      }
    )
    DispatchQueue.concurrentPerform(iterations: senders) { sender in
      for index in 0..<perSender { subject.onNext(sender * perSender + index) }
    }
    #expect(await done.wait())
    subscription.dispose()
    #expect(probe.maximum == 1)
    let values = received.values
    #expect(values.count == senders * perSender)
    for sender in 0..<senders {
      let mine = values.filter { $0 / perSender == sender }
      #expect(mine == Array(sender * perSender..<(sender + 1) * perSender))
    }
  }

  @Test func delayOnAConcurrentSchedulerKeepsOrder() async {
    let received = Recorder<Int>()
    let done = Signal()
    let subscription = Observable.from(0..<500)
      .delay(.zero, scheduler: ConcurrentDispatchQueueScheduler())
      .subscribe(onNext: { received.append($0) }, onCompleted: { done.fire() })
    #expect(await done.wait())
    #expect(received.values == Array(0..<500))
    subscription.dispose()
  }

  @Test func subscribeOnSubscribesAndDisposesOnTheQueue() async {
    let scheduler = SerialDispatchQueueScheduler(label: "subscribe-on")
    let key = DispatchSpecificKey<Int>()
    scheduler.queue.setSpecific(key: key, value: 1)
    let subscribedOnQueue = Recorder<Bool>()
    let disposedOnQueue = Recorder<Bool>()
    let subscribed = DispatchSemaphore(value: 0)
    let disposed = DispatchSemaphore(value: 0)
    let source = Observable<Int, Never>.create { _ in
      subscribedOnQueue.append(DispatchQueue.getSpecific(key: key) == 1)
      subscribed.signal()
      return Disposables.create {
        disposedOnQueue.append(DispatchQueue.getSpecific(key: key) == 1)
        disposed.signal()
      }
    }
    let subscription = source.subscribe(on: scheduler).subscribe(onNext: { _ in })
    #expect(await wait(subscribed))
    subscription.dispose()
    #expect(await wait(disposed))
    #expect(subscribedOnQueue.values == [true])
    #expect(disposedOnQueue.values == [true])
  }

  @Test func debounceOnRealTimersKeepsOrderAndFlushes() async {
    let subject = PublishSubject<Int, TestError>()
    let received = Recorder<StreamEvent<Int, TestError>>()
    let done = Signal()
    let scheduler = ConcurrentDispatchQueueScheduler()
    let subscription =
      subject
      .debounce(.microseconds(50), scheduler: scheduler)
      .timeout(.seconds(30), scheduler: scheduler, error: TestError("timeout"))
      .subscribe { event in
        received.append(event)
        if event.isTerminal { done.fire() }
      }
    for value in 0..<2_000 { subject.onNext(value) }
    subject.onNext(1_000_000)
    subject.onCompleted()
    #expect(await done.wait())
    subscription.dispose()
    let events = received.values
    #expect(events.suffix(2) == [.next(1_000_000), .completed])
    let values = events.compactMap(\.element)
    #expect(values == values.sorted())
  }

  // Throttle on real timers: values arrive in order, once each, starting with the first, and the
  // last value sent is delivered when its window ends.
  @Test func throttleOnRealTimersKeepsOrderAndTheLatest() async {
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let last = Signal()
    let subscription =
      subject
      .throttle(.microseconds(100), latest: true, scheduler: ConcurrentDispatchQueueScheduler())
      .subscribe(onNext: { value in
        received.append(value)
        if value == 1_000_000 { last.fire() }
      })
    for value in 0..<2_000 { subject.onNext(value) }
    subject.onNext(1_000_000)
    #expect(await last.wait())
    subscription.dispose()
    let values = received.values
    #expect(values.first == 0)
    #expect(values.last == 1_000_000)
    #expect(values == values.sorted())
    #expect(Set(values).count == values.count)  // none delivered twice
    // How many values a window drops depends on how fast this machine sends them, so it is not
    // checked here: ThrottleTests prove the windows on virtual time.
  }

  // A timer on a concurrent scheduler ticks in order, from 0, and ends when taken.
  @Test func intervalOnAConcurrentSchedulerTicksInOrder() async {
    let received = Recorder<Int>()
    let done = Signal()
    let subscription = Observable<Int, Never>
      .interval(.microseconds(200), scheduler: ConcurrentDispatchQueueScheduler())
      .take(50)
      .subscribe(onNext: { received.append($0) }, onCompleted: { done.fire() })
    #expect(await done.wait())
    subscription.dispose()
    #expect(received.values == Array(0..<50))
  }

  /// Runs the actions of the calls that `runsAtOnce` picks (by number, from 1) at once, on a
  /// thread of their own, before `schedule` returns, and queues the others until
  /// ``runQueued()``: as a concurrent scheduler does with a run that is due, which starts
  /// elsewhere before the call that scheduled it has returned.
  final class ElsewhereAtOnceScheduler: CascadeStreams.Scheduler {
    private final class Run: Disposable {
      let action: @Sendable () -> Void
      let cancelled = Atomic<Bool>(false)

      init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
      }

      func run() {
        guard !cancelled.load(ordering: .acquiring) else { return }
        action()
      }

      func dispose() { cancelled.store(true, ordering: .releasing) }
    }

    private let runsAtOnce: @Sendable (Int) -> Bool
    private let calls = Atomic<Int>(0)
    private let queued = LockedValue<[Run]>([])

    init(runsAtOnce: @escaping @Sendable (Int) -> Bool) {
      self.runsAtOnce = runsAtOnce
    }

    var now: SchedulerInstant { SchedulerInstant(offset: .zero) }

    func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
      schedule(after: .zero, action)
    }

    func schedule(
      after delay: Duration,
      _ action: @escaping @Sendable () -> Void
    )
      -> any Disposable
    {
      let run = Run(action)
      if runsAtOnce(calls.add(1, ordering: .relaxed).newValue) {
        let ran = DispatchSemaphore(value: 0)
        Thread {
          run.run()
          ran.signal()
        }
        .start()
        ran.wait()
      } else {
        queued.withLock { $0.append(run) }
      }
      return run
    }

    /// Runs the queued runs, here.
    func runQueued() {
      let runs = queued.withLock { queued in
        defer { queued = [] }
        return queued
      }
      for run in runs { run.run() }
    }
  }

  // A periodic timer's run that starts elsewhere before the call that scheduled it returns, and
  // arms the next run meanwhile, leaves that next run armed: the timer goes on.
  @Test func aPeriodicRunThatStartsAtOnceElsewhereKeepsTheTimerGoing() {
    let scheduler = ElsewhereAtOnceScheduler { $0.isMultiple(of: 2) }
    let received = Recorder<Int>()
    let subscription = Observable<Int, Never>.interval(.seconds(1), scheduler: scheduler)
      .subscribe(onNext: { received.append($0) })
    // Each queued run emits, and arms the next run, which runs at once elsewhere, emits and arms
    // the one after (queued).
    for _ in 0..<3 { scheduler.runQueued() }
    #expect(received.values == [0, 1, 2, 3, 4, 5])
    subscription.dispose()
    scheduler.runQueued()
    #expect(received.values == [0, 1, 2, 3, 4, 5])
  }

  // A retry that starts elsewhere before the call that scheduled it returns, and whose attempt
  // fails and schedules the next retry meanwhile, leaves that next retry scheduled.
  @Test func aRetryThatStartsAtOnceElsewhereKeepsTheNextRetry() {
    let scheduler = ElsewhereAtOnceScheduler { $0 == 1 }
    let attempts = Counter()
    let source = thirdAttemptSucceeds(counting: attempts)
    let received = Recorder<StreamEvent<Int, TestError>>()
    let subscription =
      source
      .retry(maxAttempts: 5, backoff: .constant(.seconds(1)), scheduler: scheduler)
      .subscribe { received.append($0) }
    // Attempt 1 fails; its retry runs at once elsewhere, where attempt 2 fails and queues the
    // retry that makes attempt 3.
    scheduler.runQueued()
    #expect(attempts.value == 3)
    #expect(received.values == [.next(3), .completed])
    subscription.dispose()
  }

  // Retry with backoff on real timers: failing attempts on other threads are retried after the
  // wait, and the attempt that succeeds is the one delivered.
  @Test func retryWithBackoffOnRealTimers() async {
    let attempts = Counter()
    let source = thirdAttemptSucceeds(counting: attempts) {
      DispatchQueue.global().async(execute: $0)
    }
    let received = Recorder<StreamEvent<Int, TestError>>()
    let done = Signal()
    let subscription =
      source
      .retry(
        maxAttempts: 5,
        backoff: .constant(.microseconds(100)),
        scheduler: ConcurrentDispatchQueueScheduler()
      )
      .subscribe { event in
        received.append(event)
        if event.isTerminal { done.fire() }
      }
    #expect(await done.wait())
    subscription.dispose()
    #expect(received.values == [.next(3), .completed])
    #expect(attempts.value == 3)
  }

  // Delayed jobs (`DispatchTimerItem`: a dispatch timer source, the work behind a lock) scheduled
  // from four threads, half of them cancelled at once, racing their timers: every job that was
  // not cancelled runs exactly once, none runs twice. Under ThreadSanitizer (CI) a race between
  // a timer firing and a cancel would be reported.
  @Test func delayedJobsRaceTheirCancellation() async {
    let scheduler = SerialDispatchQueueScheduler(label: "delayed-race")
    let runs = Watched([Int: Int]())
    let kept = LockedValue(Set<Int>())
    let perThread = 200
    let finished = await runOnThreads(4) { thread in
      for index in 0..<perThread {
        let id = thread * perThread + index
        let job = scheduler.schedule(after: .microseconds(index % 3)) {
          runs.update { $0[id, default: 0] += 1 }
        }
        if index.isMultiple(of: 2) {
          job.dispose()
        } else {
          kept.withLock { _ = $0.insert(id) }
        }
      }
    }
    #expect(finished)
    let keptIDs = kept.withLock { $0 }
    // Waits for the jobs themselves: until every job kept has run.
    #expect(await runs.wait { counts in keptIDs.allSatisfy { counts[$0] != nil } })
    let counts = runs.value
    #expect(keptIDs.allSatisfy { counts[$0] == 1 }, "every job kept runs once")
    #expect(counts.values.allSatisfy { $0 == 1 }, "no job runs twice")
  }
}

/// A source whose first two attempts fail and whose third emits its number and completes.
///
/// `deliver` runs each attempt's events: at once by default, or on another thread.
private func thirdAttemptSucceeds(
  counting attempts: Counter,
  deliver: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }
) -> Observable<Int, TestError> {
  Observable<Int, TestError>.create { observer in
    let attempt = attempts.increment()
    deliver {
      if attempt < 3 {
        observer.onError(TestError("attempt \(attempt)"))
      } else {
        observer.onNext(attempt)
        observer.onCompleted()
      }
    }
    return Disposables.empty
  }
}
