import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ConcatTests {
  @Test func subscribesTheNextSourceOnlyWhenThePreviousCompletes() {
    let a = PublishSubject<Int, TestError>()
    let b = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = Observable.concat(a.asObservable(), b.asObservable())
      .subscribe { events.append($0) }
    #expect(a.hasObservers && !b.hasObservers)
    b.onNext(0)  // nobody listens yet
    a.onNext(1)
    a.onCompleted()
    #expect(b.hasObservers)
    b.onNext(2)
    b.onCompleted()
    #expect(events.values == [.next(1), .next(2), .completed])
    subscription.dispose()
  }

  @Test func failureEndsTheStreamWithoutSubscribingTheRest() {
    let a = PublishSubject<Int, TestError>()
    let b = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = a.concat(with: b).subscribe { events.append($0) }
    a.onNext(1)
    a.onError(TestError("a"))
    #expect(events.values == [.next(1), .error(TestError("a"))])
    #expect(!b.hasObservers)
    subscription.dispose()
  }

  @Test func manySynchronousSourcesDoNotGrowTheStack() {
    let count = Counter()
    let completed = Counter()
    let sources = Array(repeating: Observable<Int, Never>.just(1), count: 50_000)
    Observable.concat(sources).subscribe(
      onNext: { _ in count.increment() },
      onCompleted: { completed.increment() }
    )
    #expect(count.value == 50_000)
    #expect(completed.value == 1)
  }

  @Test func concatWithAppendsTheOtherStream() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.of(1, 2).concat(with: Observable.of(3)).subscribe { events.append($0) }
    #expect(events.values == [.next(1), .next(2), .next(3), .completed])
  }

  @Test func noSourcesCompletesAtOnce() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable<Int, Never>.concat([]).subscribe { events.append($0) }
    #expect(events.values == [.completed])
  }

  @Test func disposingDisposesTheCurrentSource() {
    let a = PublishSubject<Int, Never>()
    let subscription = a.concat(with: Observable.never()).subscribe { _ in }
    #expect(a.hasObservers)
    subscription.dispose()
    #expect(!a.hasObservers)
  }
}
