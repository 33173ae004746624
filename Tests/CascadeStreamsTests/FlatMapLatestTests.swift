import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct FlatMapLatestTests {
  /// Inner streams that ignore disposal: their observers escape, so a test can send late values.
  final class Inners: Sendable {
    let observers = LockedValue<[AnyObserver<Int, TestError>]>([])
    let teardowns = Counter()

    func make() -> Observable<Int, TestError> {
      Observable(unchecked: { [self] observer in
        observers.withLock { $0.append(observer) }
        return Disposables.create { self.teardowns.increment() }
      })
    }

    subscript(index: Int) -> AnyObserver<Int, TestError> {
      observers.withLock { $0[index] }
    }
  }

  @Test func aNewValueDisposesThePreviousInnerAndItsLateValuesAreIgnored() {
    let outer = PublishSubject<Int, TestError>()
    let inners = Inners()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = outer.flatMapLatest { _ in inners.make() }
      .subscribe { events.append($0) }
    outer.onNext(1)
    inners[0].onNext(10)
    outer.onNext(2)
    #expect(inners.teardowns.value == 1)
    inners[0].onNext(11)  // late: the first inner was replaced
    inners[1].onNext(20)
    inners[0].onCompleted()  // late completion changes nothing
    inners[1].onNext(21)
    #expect(events.values == [.next(10), .next(20), .next(21)])
    subscription.dispose()
    #expect(inners.teardowns.value == 2)
  }

  @Test func completesOnceTheOuterAndTheCurrentInnerHaveCompleted() {
    let outer = PublishSubject<Int, TestError>()
    let inners = [PublishSubject<Int, TestError>(), PublishSubject<Int, TestError>()]
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = outer.flatMapLatest { inners[$0] }.subscribe { events.append($0) }
    outer.onNext(0)
    outer.onNext(1)
    outer.onCompleted()
    #expect(events.values.isEmpty)
    inners[1].onNext(1)
    inners[1].onCompleted()
    #expect(events.values == [.next(1), .completed])
    subscription.dispose()
  }

  @Test func completesWithTheOuterWhenNoInnerIsActive() {
    let outer = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = outer.flatMapLatest { Observable.just($0) }
      .subscribe { events.append($0) }
    outer.onNext(1)
    outer.onCompleted()
    #expect(events.values == [.next(1), .completed])
    subscription.dispose()
  }

  @Test func failureOfTheCurrentInnerFails() {
    let outer = PublishSubject<Int, TestError>()
    let inner = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = outer.flatMapLatest { _ in inner }.subscribe { events.append($0) }
    outer.onNext(1)
    inner.onError(TestError("inner"))
    #expect(events.values == [.error(TestError("inner"))])
    #expect(!outer.hasObservers)
    subscription.dispose()
  }

  @Test func failureOfTheOuterFailsAndDisposesTheInner() {
    let outer = PublishSubject<Int, TestError>()
    let inners = Inners()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = outer.flatMapLatest { _ in inners.make() }
      .subscribe { events.append($0) }
    outer.onNext(1)
    outer.onError(TestError("outer"))
    inners[0].onNext(1)
    #expect(events.values == [.error(TestError("outer"))])
    #expect(inners.teardowns.value == 1)
    subscription.dispose()
  }

  @Test func switchLatestFollowsTheLatestStream() {
    let streams = PublishSubject<Observable<Int, Never>, Never>()
    let first = PublishSubject<Int, Never>()
    let second = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let subscription = streams.switchLatest().subscribe(onNext: { received.append($0) })
    streams.onNext(first.asObservable())
    first.onNext(1)
    streams.onNext(second.asObservable())
    #expect(!first.hasObservers)
    second.onNext(2)
    #expect(received.values == [1, 2])
    subscription.dispose()
  }
}
