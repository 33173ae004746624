import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct TakeUntilTests {
  @Test func completesWhenTheOtherStreamEmits() {
    let source = PublishSubject<Int, TestError>()
    let stop = PublishSubject<Void, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.take(until: stop).subscribe { events.append($0) }
    source.onNext(1)
    stop.onNext()
    source.onNext(2)
    #expect(events.values == [.next(1), .completed])
    #expect(!source.hasObservers && !stop.hasObservers)
    subscription.dispose()
  }

  @Test func completionOfTheOtherStreamChangesNothing() {
    let source = PublishSubject<Int, TestError>()
    let stop = PublishSubject<Void, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.take(until: stop).subscribe { events.append($0) }
    stop.onCompleted()
    source.onNext(1)
    source.onCompleted()
    #expect(events.values == [.next(1), .completed])
    subscription.dispose()
  }

  @Test func failureOfTheOtherStreamFails() {
    let source = PublishSubject<Int, TestError>()
    let stop = PublishSubject<Void, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.take(until: stop).subscribe { events.append($0) }
    stop.onError(TestError("stop"))
    #expect(events.values == [.error(TestError("stop"))])
    #expect(!source.hasObservers)
    subscription.dispose()
  }

  @Test func anOtherStreamThatEmitsAtOnceCompletesBeforeSubscribingTheSource() {
    let subscriptions = Counter()
    let source = Observable<Int, Never>.create { observer in
      subscriptions.increment()
      observer.onNext(1)
      return Disposables.empty
    }
    let events = Recorder<StreamEvent<Int, Never>>()
    source.take(until: Observable.just(())).subscribe { events.append($0) }
    #expect(events.values == [.completed])
    #expect(subscriptions.value == 0)
  }
}
