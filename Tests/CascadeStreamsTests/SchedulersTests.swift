import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Testing

@Suite(.checksResources)
struct SchedulersTests {
  // AT-09: work scheduled on the main queue with nothing of the scheduler's waiting runs
  // synchronously.
  @Test func mainSchedulerRunsAtOnceOnTheMainQueue() async {
    let scheduler = MainScheduler()
    let ran = Counter()
    let (onMain, ranSynchronously) = await MainActor.run {
      let onMain = MainScheduler.isOnMainQueue
      scheduler.schedule { ran.increment() }
      return (onMain, ran.value == 1)
    }
    #expect(onMain)
    #expect(ranSynchronously)
  }

  // AT-09: work scheduled from inside one of its own actions waits for it, in order; another
  // scheduler's "run now" decision does not depend on this one's waiting work.
  @Test func mainSchedulersDoNotShareTheRunNowDecision() async {
    let first = MainScheduler()
    let second = MainScheduler()
    let log = Recorder<String>()
    await MainActor.run {
      _ = first.schedule {
        log.append("first: begin")
        first.schedule { log.append("first: nested") }
        second.schedule { log.append("second") }
        log.append("first: end")
      }
    }
    #expect(await log.wait(forCount: 4))
    #expect(log.values == ["first: begin", "second", "first: end", "first: nested"])
  }

  @Test func mainSchedulerEnqueuesFromOffTheMainQueue() async {
    let scheduler = MainScheduler()
    let onMain = Recorder<Bool>()
    scheduler.schedule { onMain.append(MainScheduler.isOnMainQueue) }
    #expect(await onMain.wait(forCount: 1))
    #expect(onMain.values == [true])
  }

  @Test func observeOnMainSchedulerDeliversOnTheMainQueue() async {
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<Bool>()
    let subscription = subject.observe(on: MainScheduler()).subscribe(onNext: { _ in
      received.append(MainScheduler.isOnMainQueue)
    })
    subject.onNext(1)
    subject.onNext(2)
    #expect(await received.wait(forCount: 2))
    #expect(received.values == [true, true])
    subscription.dispose()
  }

  // A dispatch queue is a scheduler, as in Combine: work runs on the queue, at once or later.
  @Test func aDispatchQueueIsAScheduler() async {
    let queue = DispatchQueue(label: "queue as scheduler")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 1)
    let onQueue = Recorder<String>()
    queue.schedule(after: .milliseconds(1)) {
      onQueue.append("later, on the queue: \(DispatchQueue.getSpecific(key: key) == 1)")
    }
    queue.schedule {
      onQueue.append("now, on the queue: \(DispatchQueue.getSpecific(key: key) == 1)")
    }
    #expect(await onQueue.wait(forCount: 2))
    #expect(
      Set(onQueue.values) == ["now, on the queue: true", "later, on the queue: true"]
    )

    // The SwiftReactor seed's line.
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.just(1).delay(for: 0.001, scheduler: DispatchQueue.global())
      .subscribe { events.append($0) }
    #expect(await events.wait(forCount: 2))
    #expect(events.values == [.next(1), .completed])
  }

  @Test func immediateSchedulerRunsInline() {
    let ran = Counter()
    ImmediateScheduler.instance.schedule { ran.increment() }
    #expect(ran.value == 1)
  }

  @Test func timeOperatorsWorkOnAnImmediateScheduler() {
    let received = Recorder<StreamEvent<Int, Never>>()
    Observable.from([1, 2, 3])
      .delay(.zero, scheduler: ImmediateScheduler.instance)
      .debounce(.zero, scheduler: ImmediateScheduler.instance)
      .subscribe { received.append($0) }
    #expect(received.values == [.next(1), .next(2), .next(3), .completed])
  }

  // A cancelled delayed job lets go of its work (and what it captured) without waiting for its
  // deadline. `asyncAfter` kept it queued for the whole delay: `buffer(timeSpan:count:)` with an
  // hour's span, which schedules a timer per buffer and cancels it when the buffer fills, held a
  // gigabyte after 2 million buffers (W6e).
  @Test func cancellingADelayedJobReleasesItsWorkBeforeItsDeadline() {
    let scheduler = SerialDispatchQueueScheduler(label: "delayed")
    let live = LiveCount()
    var jobs: [any Disposable] = []
    for number in 0..<100 {
      let captured = Tracked(number, in: live)
      jobs.append(scheduler.schedule(after: .seconds(3_600)) { _ = captured })
    }
    #expect(live.value == 100)
    for job in jobs { job.dispose() }
    #expect(live.value == 0, "cancelled delayed jobs still hold what their work captured")
  }
}
