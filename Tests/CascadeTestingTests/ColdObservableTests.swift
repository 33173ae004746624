import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ColdObservableTests {
  // AT-48: a cold stream plays its events relative to each subscription and records when each
  // subscriber subscribed and disposed of it.
  @Test func playsRelativeToEachSubscriptionAndRecordsWindows() {
    let scheduler = TestScheduler()
    let source = scheduler.createColdObservable([
      .next(.seconds(10), 1),
      .next(.seconds(20), 2),
      .completed(.seconds(30)),
    ])
    scheduler.advance(to: Duration.seconds(200).instant)
    let first = scheduler.createObserver(Int.self)
    let firstSubscription = source.subscribe(first)
    scheduler.advance(to: Duration.seconds(215).instant)
    let second = scheduler.createObserver(Int.self)
    let secondSubscription = source.subscribe(second)
    scheduler.advance(to: Duration.seconds(220).instant)
    firstSubscription.dispose()
    scheduler.advance(to: Duration.seconds(300).instant)
    secondSubscription.dispose()

    first.assertEvents([.next(.seconds(210), 1), .next(.seconds(220), 2)])
    second.assertEvents([
      .next(.seconds(225), 1),
      .next(.seconds(235), 2),
      .completed(.seconds(245)),
    ])
    source.assertSubscriptions([
      SubscriptionWindow(.seconds(200), .seconds(220)),
      SubscriptionWindow(.seconds(215), .seconds(300)),
    ])
  }

  // AT-48: subscribed at 210 and disposed at 220 when cancelled.
  @Test func windowOfACancelledSubscription() {
    let scheduler = TestScheduler()
    let source = scheduler.createColdObservable([
      .next(.seconds(5), 1),
      .next(.seconds(15), 2),
      .completed(.seconds(20)),
    ])
    let observer = scheduler.start(subscribed: .seconds(210), disposed: .seconds(220)) {
      source.map { $0 * 10 }
    }
    observer.assertEvents([.next(.seconds(215), 10)])
    #expect(
      source.subscriptions == [
        SubscriptionWindow(subscribed: .seconds(210), disposed: .seconds(220))
      ]
    )
  }

  // AT-48: an operator lets go of its source right after the terminal event.
  @Test func windowClosesWhenAnOperatorSeesTheEnd() {
    let scheduler = TestScheduler()
    let source = scheduler.createColdObservable([
      .next(.seconds(10), "a"),
      .error(.seconds(30), TestError("boom")),
    ])
    let observer = scheduler.start { source.map { $0.uppercased() } }
    observer.assertEvents([
      .next(.seconds(210), "A"),
      .error(.seconds(230), TestError("boom")),
    ])
    source.assertSubscriptions([SubscriptionWindow(.seconds(200), .seconds(230))])
  }

  @Test func keepsTheStreamGrammar() {
    let scheduler = TestScheduler()
    let source = scheduler.createColdObservable([
      .next(.seconds(1), 1),
      .completed(.seconds(2)),
      .next(.seconds(3), 2),
      .completed(.seconds(4)),
    ])
    let observer = scheduler.createObserver(Int.self)
    let subscription = source.subscribe(observer)
    scheduler.advance(by: .seconds(5))
    subscription.dispose()
    observer.assertEvents([.next(.seconds(1), 1), .completed(.seconds(2))])
    source.assertSubscriptions([SubscriptionWindow(.zero, .seconds(5))])
  }

  @Test func liveSubscriptionHasAnOpenWindowAndCountsItsPendingEvents() throws {
    // The test's own account: other tests run in parallel and move the process total.
    let account = try #require(ResourceAccount.current)
    let scheduler = TestScheduler()
    let source = scheduler.createColdObservable([.next(.seconds(10), 1)])
    let before = account.live
    let subscription = source.subscribe(scheduler.createObserver(Int.self))
    #expect(source.subscriptions == [SubscriptionWindow(.zero)])
    #expect(account.live == before + 1)
    subscription.dispose()
    #expect(account.live == before)
    #expect(scheduler.pendingCount == 0)
    #expect(source.recordedEvents == [.next(.seconds(10), 1)])
  }
}
