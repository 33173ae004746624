import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// The `bind` cases re-express RxSwift's `Observable+RelayBindTests` for `PublishRelay`
// (ReactiveX/RxSwift, Tests/RxRelayTests).
@Suite(.checksResources)
struct PublishRelayTests {
  @Test func deliversAcceptedValuesToCurrentSubscribersOnly() {
    let scheduler = TestScheduler()
    let relay = PublishRelay<Int>()
    let early = scheduler.createObserver(Int.self)
    let late = scheduler.createObserver(Int.self)
    let subscriptions = CompositeDisposable()
    scheduler.schedule(after: .seconds(100)) { subscriptions.insert(relay.subscribe(early)) }
    scheduler.schedule(after: .seconds(150)) { relay.accept(1) }
    scheduler.schedule(after: .seconds(200)) { subscriptions.insert(relay.subscribe(late)) }
    scheduler.schedule(after: .seconds(250)) { relay.accept(2) }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(300)))
    early.assertEvents([.next(.seconds(150), 1), .next(.seconds(250), 2)])
    late.assertEvents([.next(.seconds(250), 2)])
    #expect(relay.hasObservers)
    subscriptions.dispose()
    #expect(!relay.hasObservers)
  }

  @Test func asObservableErasesToAnInfallibleStream() {
    let relay = PublishRelay<String>()
    let stream: Infallible<String> = relay.asObservable()
    let events = Recorder<StreamEvent<String, Never>>()
    let subscription = stream.subscribe { events.append($0) }
    relay.accept("a")
    #expect(events.values == [.next("a")])
    subscription.dispose()
  }

  @Test func aValueAcceptedFromInsideACallbackIsDeliveredAfterIt() {
    let relay = PublishRelay<Int>()
    let log = Recorder<String>()
    let subscription = relay.subscribe(onNext: { value in
      log.append("enter \(value)")
      if value == 1 { relay.accept(2) }
      log.append("exit \(value)")
    })
    relay.accept(1)
    #expect(log.values == ["enter 1", "exit 1", "enter 2", "exit 2"])
    subscription.dispose()
  }

  @Test func valuesBridgeIsANonThrowingAsyncSequence() async {
    let relay = PublishRelay<Int>()
    // The iterator subscribes when made; values accepted afterwards wait in its buffer.
    var iterator = relay.values.makeAsyncIterator()
    relay.accept(1)
    relay.accept(2)
    // No `try`: a relay cannot fail.
    let first = await iterator.next()
    let second = await iterator.next()
    #expect([first, second] == [1, 2])
  }

  // RxSwift: testBindToPublishRelay. The relay receives the value, not the completion.
  @Test func bindingForwardsValuesButNotCompletion() {
    let relay = PublishRelay<Int>()
    let events = Recorder<StreamEvent<Int, Never>>()
    let subscription = relay.subscribe { events.append($0) }
    Observable.just(1).bind(to: relay)
    #expect(events.values == [.next(1)])
    #expect(relay.hasObservers)
    subscription.dispose()
  }

  // RxSwift: testBindToPublishRelays
  @Test func bindingToSeveralRelays() {
    let first = PublishRelay<Int>()
    let second = PublishRelay<Int>()
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

  // RxSwift: testBindToOptionalPublishRelay
  @Test func bindingToAnOptionalRelay() {
    let relay = PublishRelay<Int?>()
    let events = Recorder<StreamEvent<Int?, Never>>()
    let subscription = relay.subscribe { events.append($0) }
    (Observable.just(1) as Infallible<Int>).bind(to: relay)
    #expect(events.values == [.next(1)])
    subscription.dispose()
  }

  // RxSwift: testBindToOptionalPublishRelays
  @Test func bindingToSeveralOptionalRelays() {
    let first = PublishRelay<Int?>()
    let second = PublishRelay<Int?>()
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

  // RxSwift: testBindToPublishRelayNoAmbiguity
  @Test func bindingALiteralToAnOptionalRelayIsNotAmbiguous() {
    let relay = PublishRelay<Int?>()
    let events = Recorder<StreamEvent<Int?, Never>>()
    let subscription = relay.subscribe { events.append($0) }
    Observable.just(1).bind(to: relay)
    #expect(events.values == [.next(1)])
    subscription.dispose()
  }
}
