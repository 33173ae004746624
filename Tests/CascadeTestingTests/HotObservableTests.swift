import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct HotObservableTests {
  // AT-48: a hot stream plays at absolute times to whoever is subscribed, and records each
  // subscription window.
  @Test func playsAtAbsoluteTimesAndRecordsWindows() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([
      .next(.seconds(150), 1),
      .next(.seconds(210), 2),
      .next(.seconds(230), 3),
      .next(.seconds(250), 4),
      .completed(.seconds(300)),
    ])
    let early = scheduler.createObserver(Int.self)
    let late = scheduler.createObserver(Int.self)
    scheduler.advance(to: Duration.seconds(200).instant)
    let earlySubscription = source.subscribe(early)
    scheduler.advance(to: Duration.seconds(220).instant)
    let lateSubscription = source.subscribe(late)
    scheduler.advance(to: Duration.seconds(240).instant)
    earlySubscription.dispose()
    scheduler.advance(to: Duration.seconds(400).instant)
    lateSubscription.dispose()

    early.assertEvents([.next(.seconds(210), 2), .next(.seconds(230), 3)])
    late.assertEvents([
      .next(.seconds(230), 3),
      .next(.seconds(250), 4),
      .completed(.seconds(300)),
    ])
    source.assertSubscriptions([
      SubscriptionWindow(.seconds(200), .seconds(240)),
      SubscriptionWindow(.seconds(220), .seconds(400)),
    ])
  }

  // AT-48: an effect subscribed at 210 and cancelled at 220.
  @Test func windowOfACancelledSubscription() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([
      .next(.seconds(205), 1),
      .next(.seconds(215), 2),
      .next(.seconds(225), 3),
    ])
    let observer = scheduler.start(subscribed: .seconds(210), disposed: .seconds(220)) {
      source.map { $0 + 100 }
    }
    observer.assertEvents([.next(.seconds(215), 102)])
    source.assertSubscriptions([SubscriptionWindow(.seconds(210), .seconds(220))])
    // The event at 225 is a fixture, not a live resource: leaving it unplayed is fine.
    #expect(scheduler.pendingCount == 1)
  }

  @Test func nothingAfterTheFirstTerminalEvent() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([
      .next(.seconds(1), "a"),
      .error(.seconds(2), TestError("boom")),
      .next(.seconds(3), "b"),
      .completed(.seconds(4)),
    ])
    let observer = scheduler.createObserver(String.self, failure: TestError.self)
    let subscription = source.subscribe(observer)
    scheduler.advance(by: .seconds(3))
    let late = scheduler.createObserver(String.self, failure: TestError.self)
    let lateSubscription = source.subscribe(late)
    scheduler.advance(by: .seconds(3))
    subscription.dispose()
    lateSubscription.dispose()
    observer.assertEvents([.next(.seconds(1), "a"), .error(.seconds(2), TestError("boom"))])
    late.assertEvents([])
    source.assertSubscriptions([
      SubscriptionWindow(.zero, .seconds(6)),
      SubscriptionWindow(.seconds(3), .seconds(6)),
    ])
  }

  @Test func disposingFromInsideDeliveryStopsThatSubscriberOnly() {
    let scheduler = TestScheduler()
    let source = scheduler.createHotObservable([.next(.seconds(1), 1), .next(.seconds(2), 2)])
    let seen = Recorder<String>()
    let box = Recorder<any Disposable>()
    let first = source.subscribe(onNext: { value in
      seen.append("first \(value)")
      for subscription in box.values { subscription.dispose() }
    })
    let second = source.subscribe(onNext: { seen.append("second \($0)") })
    box.append(second)
    scheduler.advance(by: .seconds(2))
    first.dispose()
    #expect(seen.values == ["first 1", "first 2"])
    source.assertSubscriptions([
      SubscriptionWindow(.zero, .seconds(2)),
      SubscriptionWindow(.zero, .seconds(1)),
    ])
  }

  /// ReactorKit's and RxTest's idiom: the stream is built and subscribed in one chain, and only the
  /// scheduler keeps it.
  @Test func playsWhenOnlyTheSchedulerKeepsIt() {
    let scheduler = TestScheduler()
    let observer = scheduler.createObserver(Int.self)
    let subscription = scheduler.createHotObservable([
      .next(.seconds(100), 1), .completed(.seconds(200)),
    ])
    .subscribe(observer)

    scheduler.advance(to: Duration.seconds(300).instant)

    observer.assertEvents([.next(.seconds(100), 1), .completed(.seconds(200))])
    subscription.dispose()
  }

  @Test func theStreamAndItsSchedulerDoNotKeepEachOtherAlive() {
    weak var weakScheduler: TestScheduler?
    weak var weakSource: HotObservable<Int, Never>?
    do {
      let scheduler = TestScheduler()
      let source = scheduler.createHotObservable([.next(.seconds(100), 1)])  // never played
      let observer = scheduler.createObserver(Int.self)
      let subscription = source.subscribe(observer)
      weakScheduler = scheduler
      weakSource = source
      subscription.dispose()
    }
    #expect(weakScheduler == nil)
    #expect(weakSource == nil)
  }
}
