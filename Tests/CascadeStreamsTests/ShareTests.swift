import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ShareTests {
  /// A cold source that counts its subscriptions and disposals and hands out its observers.
  final class Source: Sendable {
    let subscriptions = Counter()
    let disposals = Counter()
    let observers = LockedValue<[AnyObserver<Int, TestError>]>([])

    var stream: Observable<Int, TestError> {
      Observable.create { [self] observer in
        subscriptions.increment()
        observers.withLock { $0.append(observer) }
        return Disposables.create { self.disposals.increment() }
      }
    }

    func send(_ event: StreamEvent<Int, TestError>) {
      for observer in observers.withLock({ $0 }) { observer.on(event) }
    }
  }

  @Test func subscribersShareOneSubscription() {
    let source = Source()
    let shared = source.stream.share()
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    let a = shared.subscribe(onNext: { first.append($0) })
    source.send(.next(1))
    let b = shared.subscribe(onNext: { second.append($0) })
    source.send(.next(2))
    #expect(source.subscriptions.value == 1)
    #expect(first.values == [1, 2])
    #expect(second.values == [2])
    a.dispose()
    #expect(source.disposals.value == 0)
    b.dispose()
    #expect(source.disposals.value == 1)
  }

  @Test func replaysTheLatestValuesToLateSubscribers() {
    let source = Source()
    let shared = source.stream.share(replay: 2)
    let a = shared.subscribe { _ in }
    source.send(.next(1))
    source.send(.next(2))
    source.send(.next(3))
    let late = Recorder<Int>()
    let b = shared.subscribe(onNext: { late.append($0) })
    source.send(.next(4))
    #expect(late.values == [2, 3, 4])
    a.dispose()
    b.dispose()
  }

  @Test func reconnectsWithAnEmptyBufferAfterTheLastSubscriberLeft() {
    let source = Source()
    let shared = source.stream.share(replay: 1)
    let a = shared.subscribe { _ in }
    source.send(.next(1))
    a.dispose()
    #expect(source.disposals.value == 1)
    let received = Recorder<Int>()
    let b = shared.subscribe(onNext: { received.append($0) })
    #expect(source.subscriptions.value == 2)
    #expect(received.values.isEmpty)
    b.dispose()
  }

  @Test func terminalEventReachesSubscribersAndALaterSubscriberReconnects() {
    let source = Source()
    let shared = source.stream.share(replay: 1)
    let first = Recorder<StreamEvent<Int, TestError>>()
    let second = Recorder<StreamEvent<Int, TestError>>()
    let a = shared.subscribe { first.append($0) }
    let b = shared.subscribe { second.append($0) }
    source.send(.next(1))
    source.send(.completed)
    #expect(first.values == [.next(1), .completed])
    #expect(second.values == [.next(1), .completed])
    #expect(source.disposals.value == 1)
    let third = Recorder<StreamEvent<Int, TestError>>()
    let c = shared.subscribe { third.append($0) }
    #expect(source.subscriptions.value == 2)
    #expect(third.values.isEmpty)
    a.dispose()
    b.dispose()
    c.dispose()
  }

  @Test func synchronousSourceCompletesForTheFirstSubscriberAndRunsAgainForTheNext() {
    let subscriptions = Counter()
    let shared = Observable<Int, Never>.deferred {
      subscriptions.increment()
      return Observable.of(1, 2)
    }
    .share(replay: 1)
    let first = Recorder<StreamEvent<Int, Never>>()
    let second = Recorder<StreamEvent<Int, Never>>()
    shared.subscribe { first.append($0) }
    shared.subscribe { second.append($0) }
    #expect(first.values == [.next(1), .next(2), .completed])
    #expect(second.values == [.next(1), .next(2), .completed])
    #expect(subscriptions.value == 2)
  }

  @Test func takeOnASharedStreamDisconnectsWhenItIsTheLastSubscriber() {
    let source = Source()
    let shared = source.stream.share()
    let received = Recorder<Int>()
    shared.take(1).subscribe(onNext: { received.append($0) })
    source.send(.next(1))
    #expect(received.values == [1])
    #expect(source.disposals.value == 1)
  }
}
