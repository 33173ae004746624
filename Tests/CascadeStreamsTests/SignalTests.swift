import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxCocoa's `Signal`, headless: as `Driver` (see DriverTests), but a new subscriber receives
// nothing sent before it subscribed. `CascadeTestSupport` has a `Signal` of its own (a one-shot
// latch), which its import makes the unqualified name here, hence `UISignal`.
@Suite(.checksResources)
struct SignalTests {
  typealias UISignal = CascadeStreams.Signal

  static let failure = TestError("offline")

  func emit(_ signal: UISignal<Int>, into deliveries: MainDeliveries) -> any Disposable {
    signal.emit(
      onNext: { deliveries.record("\($0)") },
      onCompleted: { deliveries.record("completed") }
    )
  }

  @Test func valuesSentOnAnotherThreadArriveOnTheMainActor() async {
    let source = PublishSubject<Int, TestError>()
    let deliveries = MainDeliveries()
    let subscription = emit(source.asSignal(onErrorJustReturn: 0), into: deliveries)
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
    let subscription = emit(source.asSignal(onErrorJustReturn: -1), into: deliveries)
    await onOwnThread {
      source.onNext(1)
      source.onError(Self.failure)
    }
    #expect(await deliveries.wait(forCount: 3))
    #expect(deliveries.values == ["1", "-1", "completed"])
    subscription.dispose()
  }

  @Test func onErrorSignalWithContinuesWithTheFallback() async {
    let source = PublishSubject<Int, TestError>()
    let deliveries = MainDeliveries()
    let signal = source.asSignal(onErrorSignalWith: UISignal.just(7))
    let subscription = emit(signal, into: deliveries)
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
    let signal = source.asSignal(onErrorRecover: { failure in
      recovered.append(failure)
      return UISignal.just(failure.message.count)
    })
    let subscription = emit(signal, into: deliveries)
    await onOwnThread { source.onError(Self.failure) }
    #expect(await deliveries.wait(forCount: 2))
    #expect(recovered.values == [Self.failure])
    #expect(deliveries.values == ["7", "completed"])
    subscription.dispose()
  }

  @Test func aLateSubscriberReceivesOnlyLaterValues() async {
    let source = PublishRelay<Int>()
    let signal = source.asSignal()
    let first = MainDeliveries()
    let late = MainDeliveries()
    let firstSubscription = emit(signal, into: first)
    await onOwnThread {
      source.accept(1)
      source.accept(2)
    }
    #expect(await first.wait(forCount: 2))
    let lateSubscription = emit(signal, into: late)
    await onOwnThread { source.accept(3) }
    #expect(await first.wait(forCount: 3))
    #expect(await late.wait(forCount: 1))
    #expect(first.values == ["1", "2", "3"])
    #expect(late.values == ["3"])
    #expect(first.allOnMainQueue && late.allOnMainQueue)
    firstSubscription.dispose()
    lateSubscription.dispose()
  }

  @Test func subscribersShareOneSubscriptionToTheSource() async {
    let subscriptions = Counter()
    let source = PublishSubject<Int, TestError>()
    let signal = Observable<Int, TestError>.deferred {
      subscriptions.increment()
      return source.asObservable()
    }
    .asSignal(onErrorJustReturn: 0)
    let first = MainDeliveries()
    let second = MainDeliveries()
    let firstSubscription = emit(signal, into: first)
    let secondSubscription = emit(signal, into: second)
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
      emit(UISignal.just(1), into: just),
      emit(UISignal.empty(), into: empty),
      emit(UISignal.never(), into: never),
    ]
    #expect(await just.wait(forCount: 2))
    #expect(await empty.wait(forCount: 1))
    await mainQueueDrained()
    #expect(just.values == ["1", "completed"])
    #expect(empty.values == ["completed"])
    #expect(never.values == [])
    for subscription in subscriptions { subscription.dispose() }
  }

  @Test func emitsToRelaysAndObservers() async {
    let source = PublishRelay<Int>()
    let current = BehaviorRelay(value: 0)
    let currentValues = Recorder<Int>()
    let currentSubscription = current.subscribe(onNext: { currentValues.append($0) })
    let published = Recorder<Int>()
    let relay = PublishRelay<Int>()
    let relaySubscription = relay.subscribe(onNext: { published.append($0) })
    let observed = MainDeliveries()
    let signal = source.asSignal().filter { $0 > 1 }.map { $0 * 10 }
    let subscriptions = [
      signal.emit(to: current),
      signal.emit(to: relay),
      signal.emit(
        to: AnyObserver<Int, Never> { event in
          if case .next(let value) = event { observed.record("\(value)") }
        }
      ),
    ]
    await onOwnThread {
      source.accept(1)
      source.accept(4)
    }
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
