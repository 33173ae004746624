import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct SubscribeOnTests {
  @Test func subscribesAndDisposesOnTheScheduler() {
    let scheduler = TestScheduler()
    let subscribed = TimeLog()
    let disposed = TimeLog()
    let source = Observable<Int, Never>.create { observer in
      subscribed.append(scheduler.now)
      observer.onNext(1)
      return Disposables.create { disposed.append(scheduler.now) }
    }
    let observer = scheduler.createObserver(Int.self)
    scheduler.advance(by: .seconds(1))
    let subscription = source.subscribe(on: scheduler).subscribe(observer)
    #expect(subscribed.times.isEmpty)
    scheduler.advance(by: .seconds(1))
    #expect(subscribed.times == [.seconds(1)])
    #expect(observer.events == [.next(.seconds(1), 1)])
    subscription.dispose()
    #expect(disposed.times.isEmpty)
    scheduler.advance(by: .seconds(1))
    #expect(disposed.times == [.seconds(2)])
  }

  @Test func disposeBeforeTheSubscriptionRunsCancelsIt() {
    let scheduler = TestScheduler()
    let subscriptions = Counter()
    let source = Observable<Int, Never>.create { _ in
      subscriptions.increment()
      return Disposables.empty
    }
    let subscription = source.subscribe(on: scheduler).subscribe(onNext: { _ in })
    subscription.dispose()
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(1))
    #expect(subscriptions.value == 0)
  }

  @Test func forwardsEveryEvent() {
    let scheduler = TestScheduler()
    let observer = scheduler.record(
      Observable<Int, TestError>.from([1, 2]).subscribe(on: scheduler),
      until: .seconds(1)
    )
    #expect(
      observer.events == [.next(.zero, 1), .next(.zero, 2), .completed(.zero)]
    )
  }
}
