import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// The coalescing `observe(on:)`, which a reactor's and a feedback loop's state streams use.
///
/// One value waits at most; a newer one replaces it; terminal events are
/// never dropped; dispose is a barrier; a replaced value is released at once.
@Suite(.checksResources)
struct ObserveLatestTests {
  @Test func aBurstDeliversTheLatestValueThenTheFailure() {
    let scheduler = TestScheduler()
    let subject = PublishSubject<Int, TestError>()
    let observer = scheduler.createObserver(Int.self, failure: TestError.self)
    let subscription = subject.observeLatest(on: scheduler).subscribe(observer)
    for value in 1...3 { subject.onNext(value) }
    subject.onError(TestError("boom"))
    #expect(observer.events.isEmpty)
    #expect(scheduler.pendingCount == 1)
    scheduler.advance()
    #expect(observer.events == [.next(.zero, 3), .error(.zero, TestError("boom"))])
    subscription.dispose()
  }

  @Test func valuesSpreadOverTimeAreEachDelivered() {
    let scheduler = TestScheduler()
    let source: Observable<Int, Never> = scheduler.timeline([
      .next(.seconds(1), 1),
      .next(.seconds(2), 2),
      .completed(.seconds(3)),
    ])
    let observer = scheduler.createObserver(Int.self)
    let subscription = source.observeLatest(on: scheduler).subscribe(observer)
    scheduler.advance(by: .seconds(3))
    #expect(
      observer.events == [.next(.seconds(1), 1), .next(.seconds(2), 2), .completed(.seconds(3))]
    )
    subscription.dispose()
  }

  @Test func disposeDropsTheWaitingValueAndCompletion() {
    let scheduler = TestScheduler()
    let subject = PublishSubject<Int, Never>()
    let received = Recorder<StreamEvent<Int, Never>>()
    let subscription = subject.observeLatest(on: scheduler)
      .subscribe(AnyObserver { received.append($0) })
    subject.onNext(1)
    subject.onCompleted()
    subscription.dispose()
    scheduler.advance()
    #expect(received.values.isEmpty)
  }

  // A replaced value is released when it is replaced, not when the drain runs.
  @Test func aReplacedValueIsReleasedAtOnce() {
    let live = LiveCount()
    let scheduler = TestScheduler()
    let subject = PublishSubject<Tracked, Never>()
    let latest = Recorder<Int>()
    let subscription = subject.observeLatest(on: scheduler).subscribe(onNext: {
      latest.append($0.number)
    })
    for number in 0..<10 { subject.onNext(Tracked(number, in: live)) }
    #expect(live.value == 1)
    scheduler.advance(by: .zero)
    #expect(live.value == 0)
    #expect(latest.values == [9])
    subscription.dispose()
  }
}
