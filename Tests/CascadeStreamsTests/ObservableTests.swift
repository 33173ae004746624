import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ObservableTests {
  // AT-01: nothing after the terminal event, and the producer's teardown runs once.
  @Test func terminalIsFinal() {
    let teardowns = Counter()
    let received = Recorder<StreamEvent<Int, TestError>>()
    let stream = Observable<Int, TestError>.create { observer in
      observer.onNext(1)
      observer.onNext(2)
      observer.onError(TestError("boom"))
      observer.onNext(3)
      observer.onCompleted()
      return Disposables.create { teardowns.increment() }
    }
    let subscription = stream.subscribe { received.append($0) }
    subscription.dispose()
    subscription.dispose()
    #expect(received.values == [.next(1), .next(2), .error(TestError("boom"))])
    #expect(teardowns.value == 1)
  }

  @Test func elementWiseChain() {
    let received = Recorder<Int>()
    Observable.from([1, 1, 2, 3, 3, 4, 5, 6])
      .map { $0 * 10 }
      .filter { $0 != 30 }
      .compactMap { $0 == 50 ? nil : $0 }
      .distinctUntilChanged()
      .scan(0, +)
      .subscribe(onNext: { received.append($0) })
    #expect(received.values == [10, 30, 70, 130])
  }

  /// `map` is the concrete, specialized `Streams.Map` wherever nothing asks for more, and an
  /// `Observable` where one is expected (returned, or passed as an `Observable`), as RxSwift's.
  @Test func mapIsConcreteUnlessAnObservableIsExpected() {
    let chained = Observable.from([1, 2]).map { $0 * 10 }
    #expect(type(of: chained) == Streams.Map<Observable<Int, Never>, Int>.self)

    func tens() -> Observable<Int, Never> {
      Observable.from([1, 2]).map { $0 * 10 }
    }
    let merged = Observable.merge(tens(), Observable.just(3).map { $0 * 10 })
    let received = Recorder<StreamEvent<Int, Never>>()
    merged.subscribe { received.append($0) }
    #expect(received.values == [.next(10), .next(20), .next(30), .completed])
  }

  /// Combine's spelling of `asObservable()`: the same stream, erased, with the same events.
  @Test func eraseToAnyPublisherIsAsObservable() {
    let erased: Observable<Int, Never> = Observable.from([1, 2]).map { $0 * 10 }
      .eraseToAnyPublisher()
    let received = Recorder<StreamEvent<Int, Never>>()
    erased.subscribe { received.append($0) }
    #expect(received.values == [.next(10), .next(20), .completed])
  }
}
