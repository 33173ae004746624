import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// The `bind` cases re-express RxSwift's `Observable+RelayBindTests` for `BehaviorRelay`
// (ReactiveX/RxSwift, Tests/RxRelayTests).
@Suite(.checksResources)
struct BehaviorRelayTests {
  @Test func aSubscriberReceivesTheCurrentValueThenEveryLaterOne() {
    let scheduler = TestScheduler()
    let relay = BehaviorRelay(value: 0)
    let observer = scheduler.createObserver(Int.self)
    let subscription = SingleAssignmentDisposable()
    scheduler.schedule(after: .seconds(150)) { relay.accept(1) }
    scheduler.schedule(after: .seconds(200)) {
      subscription.setDisposable(relay.subscribe(observer))
    }
    scheduler.schedule(after: .seconds(250)) { relay.accept(2) }
    scheduler.schedule(after: .seconds(300)) { subscription.dispose() }
    scheduler.schedule(after: .seconds(350)) { relay.accept(3) }
    scheduler.advance(to: SchedulerInstant(offset: .seconds(400)))
    observer.assertEvents([.next(.seconds(200), 1), .next(.seconds(250), 2)])
    #expect(relay.value == 3)
    #expect(!relay.hasObservers)
  }

  @Test func valueIsTheInitialValueUntilOneIsAccepted() {
    let relay = BehaviorRelay(value: "initial")
    #expect(relay.value == "initial")
    relay.accept("next")
    #expect(relay.value == "next")
  }

  @Test func valuesBridgeStartsWithTheCurrentValue() async {
    let relay = BehaviorRelay(value: 1)
    var iterator = relay.values.makeAsyncIterator()
    relay.accept(2)
    let first = await iterator.next()
    let second = await iterator.next()
    #expect([first, second] == [1, 2])
  }

  // RxSwift: testBindToBehaviorRelay
  @Test func bindingSetsTheCurrentValue() {
    let relay = BehaviorRelay(value: 0)
    Observable.just(1).bind(to: relay)
    #expect(relay.value == 1)
  }

  // RxSwift: testBindToBehaviorRelays
  @Test func bindingToSeveralRelays() {
    let first = BehaviorRelay(value: 0)
    let second = BehaviorRelay(value: 0)
    Observable.just(1).bind(to: first, second)
    #expect(first.value == 1)
    #expect(second.value == 1)
  }

  // RxSwift: testBindToOptionalBehaviorRelay
  @Test func bindingToAnOptionalRelay() {
    let relay = BehaviorRelay<Int?>(value: 0)
    (Observable.just(1) as Infallible<Int>).bind(to: relay)
    #expect(relay.value == 1)
  }

  // RxSwift: testBindToOptionalBehaviorRelays
  @Test func bindingToSeveralOptionalRelays() {
    let first = BehaviorRelay<Int?>(value: 0)
    let second = BehaviorRelay<Int?>(value: 0)
    (Observable.just(1) as Infallible<Int>).bind(to: first, second)
    #expect(first.value == 1)
    #expect(second.value == 1)
  }

  // RxSwift: testBindToBehaviorRelayNoAmbiguity
  @Test func bindingALiteralToAnOptionalRelayIsNotAmbiguous() {
    let relay = BehaviorRelay<Int?>(value: 0)
    Observable.just(1).bind(to: relay)
    #expect(relay.value == 1)
  }
}
