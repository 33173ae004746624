import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ObserveOnTests {
  @Test func deliversOnTheSchedulerAsTimeAdvances() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(2), 2),
      .completed(.seconds(3)),
    ])
    let observer = scheduler.createObserver(Int.self)
    let subscription = source.observe(on: scheduler).subscribe(observer)
    scheduler.advance(by: .seconds(1))
    #expect(observer.events == [.next(.seconds(1), 1)])
    scheduler.advance(by: .milliseconds(1500))
    #expect(observer.events == [.next(.seconds(1), 1), .next(.seconds(2), 2)])
    scheduler.advance(by: .seconds(1))
    #expect(
      observer.events == [
        .next(.seconds(1), 1),
        .next(.seconds(2), 2),
        .completed(.seconds(3)),
      ]
    )
    subscription.dispose()
  }

  @Test func aBurstCostsOneScheduledDrain() {
    let scheduler = TestScheduler()
    let subject = PublishSubject<Int, TestError>()
    let observer = scheduler.createObserver(Int.self, failure: TestError.self)
    let subscription = subject.observe(on: scheduler).subscribe(observer)
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    subject.onError(TestError("boom"))
    #expect(observer.events.isEmpty)
    #expect(scheduler.pendingCount == 1)
    scheduler.advance()
    #expect(
      observer.events == [
        .next(.zero, 1), .next(.zero, 2), .next(.zero, 3), .error(.zero, TestError("boom")),
      ]
    )
    subscription.dispose()
  }

  // AT-07 (virtual time): events queued for delivery are dropped by dispose.
  @Test func disposeDropsQueuedEvents() {
    let scheduler = TestScheduler()
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<StreamEvent<Int, Never>>()
    let subscription = subject.observe(on: scheduler).subscribe(AnyObserver { received.append($0) })
    subject.onNext(1)
    subject.onCompleted()
    subscription.dispose()
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(1))
    #expect(received.values.isEmpty)
  }

  // AT-07 (virtual time): dispose from inside a callout on the scheduler stops delivery at once.
  @Test func disposeFromTheCallbackStopsDelivery() {
    let scheduler = TestScheduler()
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
    subject.onNext(1)
    subject.onNext(2)
    subject.onCompleted()
    scheduler.advance()
    #expect(received.values == [.next(1)])
  }

  @Test func eventsSentDuringADeliveryWaitForItToReturn() {
    let scheduler = TestScheduler()
    let subject = PublishSubject<Int, Never>()
    let log = Recorder<String>()
    let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
      log.append("enter \(value)")
      if value == 1 { subject.onNext(2) }
      log.append("exit \(value)")
    })
    subject.onNext(1)
    scheduler.advance()
    #expect(log.values == ["enter 1", "exit 1", "enter 2", "exit 2"])
    subscription.dispose()
  }
}
