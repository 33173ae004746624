import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct MaterializeTests {
  @Test func materializeTurnsEventsIntoValues() {
    let events = Recorder<StreamEvent<StreamEvent<Int, TestError>, Never>>()
    Observable<Int, TestError>.create { observer in
      observer.onNext(1)
      observer.onError(TestError("e"))
      return Disposables.empty
    }
    .materialize()
    .subscribe { events.append($0) }
    #expect(events.values == [.next(.next(1)), .next(.error(TestError("e"))), .completed])
  }

  @Test func materializeTurnsCompletionIntoAValue() {
    let events = Recorder<StreamEvent<StreamEvent<Int, Never>, Never>>()
    Observable.of(1).materialize().subscribe { events.append($0) }
    #expect(events.values == [.next(.next(1)), .next(.completed), .completed])
  }

  @Test func dematerializeIsTheInverse() {
    let source = PublishSubject<StreamEvent<Int, TestError>, Never>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.dematerialize().subscribe { events.append($0) }
    source.onNext(.next(1))
    source.onNext(.error(TestError("e")))
    source.onNext(.next(2))
    #expect(events.values == [.next(1), .error(TestError("e"))])
    #expect(!source.hasObservers)
    subscription.dispose()
  }

  @Test func roundTrip() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.of(1, 2).materialize().dematerialize().subscribe { events.append($0) }
    #expect(events.values == [.next(1), .next(2), .completed])
  }
}
