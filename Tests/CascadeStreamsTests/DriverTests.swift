import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// What a driver or signal delivered, each event checked to run on the main actor.
final class MainDeliveries: Sendable {
  private let events = Recorder<String>()
  private let onMainQueue = Recorder<Bool>()

  /// The events received, values as their descriptions, completion as "completed".
  var values: [String] { events.values }

  /// Whether every event was received on the main queue.
  var allOnMainQueue: Bool { onMainQueue.values.allSatisfy { $0 } }

  /// Waits until `count` events have been received (or a generous safety timeout has passed);
  /// returns whether they were.
  func wait(forCount count: Int) async -> Bool {
    await events.wait(forCount: count)
  }

  /// Records `event`; traps unless called on the main actor.
  func record(_ event: String) {
    MainActor.assertIsolated()
    onMainQueue.append(MainScheduler.isOnMainQueue)
    events.append(event)
  }
}

// RxCocoa's `Driver`, headless: the failure replaced as asked, delivery on the main queue (the
// main actor's executor), one shared subscription replaying the latest value. Sources send from
// threads of their own; the tests await the deliveries themselves (a recorder's count), since
// under load `MainScheduler` may take more than one turn of the main queue to deliver (it keeps
// one order for all its work), and `mainQueueDrained()` where nothing is to arrive.
@Suite(.checksResources)
struct DriverTests {
  static let failure = TestError("offline")

  func drive(_ driver: Driver<Int>, into deliveries: MainDeliveries) -> any Disposable {
    driver.drive(
      onNext: { deliveries.record("\($0)") },
      onCompleted: { deliveries.record("completed") }
    )
  }

  @Test func valuesSentOnAnotherThreadArriveOnTheMainActor() async {
    let source = PublishSubject<Int, TestError>()
    let deliveries = MainDeliveries()
    let subscription = drive(source.asDriver(onErrorJustReturn: 0), into: deliveries)
    await onOwnThread {
      source.onNext(1)
      source.onNext(2)
      source.onCompleted()
    }
    #expect(await deliveries.wait(forCount: 3))
    #expect(deliveries.values == ["1", "2", "completed"])
    #expect(deliveries.allOnMainQueue)
    subscription.dispose()
  }

  @Test func onErrorJustReturnReplacesTheFailureWithAValue() async {
    let source = PublishSubject<Int, TestError>()
    let deliveries = MainDeliveries()
    let subscription = drive(source.asDriver(onErrorJustReturn: -1), into: deliveries)
    await onOwnThread {
      source.onNext(1)
      source.onError(Self.failure)
    }
    #expect(await deliveries.wait(forCount: 3))
    #expect(deliveries.values == ["1", "-1", "completed"])
    subscription.dispose()
  }

  @Test func onErrorDriveWithContinuesWithTheFallback() async {
    let source = PublishSubject<Int, TestError>()
    let deliveries = MainDeliveries()
    let driver = source.asDriver(onErrorDriveWith: Driver.just(7))
    let subscription = drive(driver, into: deliveries)
    await onOwnThread {
      source.onNext(1)
      source.onError(Self.failure)
    }
    #expect(await deliveries.wait(forCount: 3))
    #expect(deliveries.values == ["1", "7", "completed"])
    #expect(deliveries.allOnMainQueue)
    subscription.dispose()
  }

  @Test func onErrorRecoverIsGivenTheFailure() async {
    let source = PublishSubject<Int, TestError>()
    let deliveries = MainDeliveries()
    let recovered = Recorder<TestError>()
    let driver = source.asDriver(onErrorRecover: { failure in
      recovered.append(failure)
      return Driver.just(failure.message.count)
    })
    let subscription = drive(driver, into: deliveries)
    await onOwnThread { source.onError(Self.failure) }
    #expect(await deliveries.wait(forCount: 2))
    #expect(recovered.values == [Self.failure])
    #expect(deliveries.values == ["7", "completed"])
    subscription.dispose()
  }

  @Test func aLateSubscriberReceivesTheLatestValueFirst() async {
    let source = PublishSubject<Int, Never>()
    let driver = source.asDriver()
    let first = MainDeliveries()
    let late = MainDeliveries()
    let firstSubscription = drive(driver, into: first)
    await onOwnThread {
      source.onNext(1)
      source.onNext(2)
    }
    #expect(await first.wait(forCount: 2))
    let lateSubscription = drive(driver, into: late)
    #expect(await late.wait(forCount: 1))
    #expect(late.values == ["2"])
    await onOwnThread { source.onNext(3) }
    #expect(await first.wait(forCount: 3))
    #expect(await late.wait(forCount: 2))
    #expect(first.values == ["1", "2", "3"])
    #expect(late.values == ["2", "3"])
    #expect(first.allOnMainQueue && late.allOnMainQueue)
    firstSubscription.dispose()
    lateSubscription.dispose()
  }

  @Test func subscribersShareOneSubscriptionToTheSource() async {
    let subscriptions = Counter()
    let source = PublishSubject<Int, TestError>()
    let driver = Observable<Int, TestError>.deferred {
      subscriptions.increment()
      return source.asObservable()
    }
    .asDriver(onErrorJustReturn: 0)
    let first = MainDeliveries()
    let second = MainDeliveries()
    let firstSubscription = drive(driver, into: first)
    let secondSubscription = drive(driver, into: second)
    await onOwnThread { source.onNext(1) }
    #expect(await first.wait(forCount: 1))
    #expect(await second.wait(forCount: 1))
    #expect(subscriptions.value == 1)
    #expect(first.values == ["1"] && second.values == ["1"])
    firstSubscription.dispose()
    secondSubscription.dispose()
    #expect(!source.hasObservers)
  }

  @Test func justEmptyAndNever() async {
    let just = MainDeliveries()
    let empty = MainDeliveries()
    let never = MainDeliveries()
    let subscriptions = [
      drive(Driver.just(1), into: just),
      drive(Driver.empty(), into: empty),
      drive(Driver.never(), into: never),
    ]
    #expect(await just.wait(forCount: 2))
    #expect(await empty.wait(forCount: 1))
    await mainQueueDrained()
    #expect(just.values == ["1", "completed"])
    #expect(empty.values == ["completed"])
    #expect(never.values == [])
    for subscription in subscriptions { subscription.dispose() }
  }

  @Test func drivesRelaysAndObservers() async {
    let source = PublishSubject<Int, Never>()
    let current = BehaviorRelay(value: 0)
    let currentValues = Recorder<Int>()
    let currentSubscription = current.subscribe(onNext: { currentValues.append($0) })
    let published = Recorder<Int>()
    let relay = PublishRelay<Int>()
    let relaySubscription = relay.subscribe(onNext: { published.append($0) })
    let observed = MainDeliveries()
    let driver = source.asDriver().map { $0 * 10 }
    let subscriptions = [
      driver.drive(current),
      driver.drive(relay),
      driver.drive(
        AnyObserver<Int, Never> { event in
          if case .next(let value) = event { observed.record("\(value)") }
        }
      ),
    ]
    await onOwnThread { source.onNext(4) }
    #expect(await currentValues.wait(forCount: 2))
    #expect(await published.wait(forCount: 1))
    #expect(await observed.wait(forCount: 1))
    #expect(current.value == 40)
    #expect(published.values == [40])
    #expect(observed.values == ["40"])
    for subscription in subscriptions + [relaySubscription, currentSubscription] {
      subscription.dispose()
    }
  }
}
