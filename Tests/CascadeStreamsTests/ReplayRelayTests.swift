import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// The first four cases re-express RxSwift's `ReplayRelayTests`, the `bind` cases its
// `Observable+RelayBindTests` (ReactiveX/RxSwift, Tests/RxRelayTests): same inputs, times and
// expected events, on Cascade's `TestScheduler`.
@Suite(.checksResources)
struct ReplayRelayTests {
  // RxSwift: test_noEvents
  @Test func aSubscriberOfAnEmptyRelayReceivesNothing() {
    let scheduler = TestScheduler()
    let relay = ReplayRelay<Int>(bufferSize: 3)
    let observer = scheduler.createObserver(Int.self)
    let subscription = relay.subscribe(observer)
    scheduler.advance(by: .seconds(1000))
    observer.assertEvents([])
    subscription.dispose()
  }

  // RxSwift: test_fewerEventsThanBufferSize
  @Test func replaysEveryValueWhenFewerThanTheBufferSize() {
    let scheduler = TestScheduler()
    let relay = ReplayRelay<Int>(bufferSize: 3)
    let observer = scheduler.createObserver(Int.self)
    let subscription = SingleAssignmentDisposable()
    scheduler.schedule(after: .seconds(150)) { relay.accept(1) }
    scheduler.schedule(after: .seconds(200)) { relay.accept(2) }
    scheduler.schedule(after: .seconds(300)) {
      subscription.setDisposable(relay.subscribe(observer))
    }
    scheduler.schedule(after: .seconds(400)) { subscription.dispose() }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(350)))
    observer.assertEvents([.next(.seconds(300), 1), .next(.seconds(300), 2)])
    scheduler.advance(to: SchedulerInstant(offset: .seconds(400)))
    #expect(!relay.hasObservers)
  }

  // RxSwift: test_moreEventsThanBufferSize
  @Test func replaysOnlyTheLatestBufferSizeValues() {
    let scheduler = TestScheduler()
    let relay = ReplayRelay<Int>(bufferSize: 3)
    let observer = scheduler.createObserver(Int.self)
    let subscription = SingleAssignmentDisposable()
    for (time, value) in zip([150, 200, 250, 300, 350], 1...5) {
      scheduler.schedule(after: .seconds(time)) { relay.accept(value) }
    }
    scheduler.schedule(after: .seconds(400)) {
      subscription.setDisposable(relay.subscribe(observer))
    }
    scheduler.schedule(after: .seconds(500)) { subscription.dispose() }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(450)))
    observer.assertEvents([
      .next(.seconds(400), 3),
      .next(.seconds(400), 4),
      .next(.seconds(400), 5),
    ])
    scheduler.advance(to: SchedulerInstant(offset: .seconds(500)))
  }

  // RxSwift: test_moreEventsThanBufferSizeMultipleObservers
  @Test func anEarlySubscriberSeesEveryValueALateOneTheReplay() {
    let scheduler = TestScheduler()
    let relay = ReplayRelay<Int>(bufferSize: 3)
    let early = scheduler.createObserver(Int.self)
    let late = scheduler.createObserver(Int.self)
    let earlySubscription = SingleAssignmentDisposable()
    let lateSubscription = SingleAssignmentDisposable()
    scheduler.schedule(after: .seconds(150)) {
      earlySubscription.setDisposable(relay.subscribe(early))
    }
    for (time, value) in zip([200, 250, 300, 350, 400], 1...5) {
      scheduler.schedule(after: .seconds(time)) { relay.accept(value) }
    }
    scheduler.schedule(after: .seconds(450)) {
      lateSubscription.setDisposable(relay.subscribe(late))
    }
    scheduler.schedule(after: .seconds(550)) {
      earlySubscription.dispose()
      lateSubscription.dispose()
    }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(500)))
    early.assertEvents([
      .next(.seconds(200), 1),
      .next(.seconds(250), 2),
      .next(.seconds(300), 3),
      .next(.seconds(350), 4),
      .next(.seconds(400), 5),
    ])
    late.assertEvents([
      .next(.seconds(450), 3),
      .next(.seconds(450), 4),
      .next(.seconds(450), 5),
    ])
    scheduler.advance(to: SchedulerInstant(offset: .seconds(550)))
    #expect(!relay.hasObservers)
  }

  // RxSwift: testBindToReplayRelay. The relay receives the value, not the completion.
  @Test func bindingForwardsValuesButNotCompletion() {
    let relay = ReplayRelay<Int>(bufferSize: 1)
    let events = Recorder<StreamEvent<Int, Never>>()
    let subscription = relay.subscribe { events.append($0) }
    Observable.just(1).bind(to: relay)
    #expect(events.values == [.next(1)])
    subscription.dispose()
  }

  // RxSwift: testBindToReplayRelays
  @Test func bindingToSeveralRelays() {
    let first = ReplayRelay<Int>(bufferSize: 1)
    let second = ReplayRelay<Int>(bufferSize: 1)
    let firstEvents = Recorder<StreamEvent<Int, Never>>()
    let secondEvents = Recorder<StreamEvent<Int, Never>>()
    let subscriptions = CompositeDisposable(
      first.subscribe { firstEvents.append($0) },
      second.subscribe { secondEvents.append($0) }
    )
    Observable.just(1).bind(to: first, second)
    #expect(firstEvents.values == [.next(1)])
    #expect(secondEvents.values == [.next(1)])
    subscriptions.dispose()
  }

  // RxSwift: testBindToOptionalReplayRelay
  @Test func bindingToAnOptionalRelay() {
    let relay = ReplayRelay<Int?>(bufferSize: 1)
    let events = Recorder<StreamEvent<Int?, Never>>()
    let subscription = relay.subscribe { events.append($0) }
    (Observable.just(1) as Infallible<Int>).bind(to: relay)
    #expect(events.values == [.next(1)])
    subscription.dispose()
  }

  // RxSwift: testBindToOptionalReplayRelays
  @Test func bindingToSeveralOptionalRelays() {
    let first = ReplayRelay<Int?>(bufferSize: 1)
    let second = ReplayRelay<Int?>(bufferSize: 1)
    let firstEvents = Recorder<StreamEvent<Int?, Never>>()
    let secondEvents = Recorder<StreamEvent<Int?, Never>>()
    let subscriptions = CompositeDisposable(
      first.subscribe { firstEvents.append($0) },
      second.subscribe { secondEvents.append($0) }
    )
    (Observable.just(1) as Infallible<Int>).bind(to: first, second)
    #expect(firstEvents.values == [.next(1)])
    #expect(secondEvents.values == [.next(1)])
    subscriptions.dispose()
  }

  // RxSwift: testBindToReplayRelayNoAmbiguity
  @Test func bindingALiteralToAnOptionalRelayIsNotAmbiguous() {
    let relay = ReplayRelay<Int?>(bufferSize: 1)
    let events = Recorder<StreamEvent<Int?, Never>>()
    let subscription = relay.subscribe { events.append($0) }
    Observable.just(1).bind(to: relay)
    #expect(events.values == [.next(1)])
    subscription.dispose()
  }

  @Test func valuesBridgeReplaysThenFollows() async {
    let relay = ReplayRelay<Int>(bufferSize: 2)
    relay.accept(1)
    relay.accept(2)
    relay.accept(3)
    var iterator = relay.values.makeAsyncIterator()
    relay.accept(4)
    var received: [Int] = []
    for _ in 0..<3 { if let value = await iterator.next() { received.append(value) } }
    #expect(received == [2, 3, 4])
  }
}
