import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct TimerTests {
  @Test func timerEmitsZeroThenCompletes() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(Observable.timer(.seconds(5), scheduler: scheduler))
    #expect(observer.events == [.next(.seconds(5), 0), .completed(.seconds(5))])
  }

  @Test func periodicTimerTicksFromItsDueTime() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(
      Observable.timer(.seconds(5), period: .seconds(2), scheduler: scheduler),
      until: .seconds(10)
    )
    #expect(
      observer.events == [
        .next(.seconds(5), 0),
        .next(.seconds(7), 1),
        .next(.seconds(9), 2),
      ]
    )
    #expect(scheduler.pendingCount == 0)
  }

  @Test func intervalTicksEveryPeriodUntilDisposed() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(
      Observable.interval(.seconds(1), scheduler: scheduler),
      until: .seconds(3.5)
    )
    #expect(
      observer.events == [
        .next(.seconds(1), 0),
        .next(.seconds(2), 1),
        .next(.seconds(3), 2),
      ]
    )
    scheduler.advance(by: .seconds(10))
    #expect(observer.events.count == 3)
  }

  @Test func disposingFromTheCallbackStopsTheTicks() {
    let scheduler = TestScheduler()
    let received = Recorder<Int>()
    let subscription = SingleAssignmentDisposable()
    subscription.setDisposable(
      Observable.interval(.seconds(1), scheduler: scheduler).subscribe(onNext: { tick in
        received.append(tick)
        if tick == 2 { subscription.dispose() }
      })
    )
    scheduler.advance(by: .seconds(10))
    #expect(received.values == [0, 1, 2])
    #expect(scheduler.pendingCount == 0)
  }

  @Test func eachSubscriberCountsFromZero() {
    let scheduler = TestScheduler()
    let interval = Observable.interval(.seconds(1), scheduler: scheduler)
    let first = scheduler.createObserver(Int.self)
    let second = scheduler.createObserver(Int.self)
    let subscriptions = DisposeBag()
    subscriptions.insert(interval.subscribe(first))
    scheduler.advance(by: .seconds(2))
    subscriptions.insert(interval.subscribe(second))
    scheduler.advance(by: .seconds(2))
    #expect(first.values == [0, 1, 2, 3])
    #expect(second.values == [0, 1])
    #expect(second.events.first?.time == .seconds(3))
    subscriptions.dispose()
  }

  @Test func creationInfersNeverUnlessAFailureIsNamed() {
    let scheduler = TestScheduler()
    let interval = Observable.interval(.seconds(1), scheduler: scheduler)
    let timer = Observable.timer(.seconds(1), scheduler: scheduler)
    let failable = Observable<Int, TestError>.interval(.seconds(1), scheduler: scheduler)
    #expect(type(of: interval) == Infallible<Int>.self)
    #expect(type(of: timer) == Infallible<Int>.self)
    #expect(type(of: failable) == Observable<Int, TestError>.self)
  }
}
