import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct MergeTests {
  @Test func interleavesValuesInArrivalOrder() {
    let a = PublishSubject<Int, TestError>()
    let b = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = Observable.merge(a.asObservable(), b.asObservable())
      .subscribe { events.append($0) }
    a.onNext(1)
    b.onNext(2)
    a.onNext(3)
    #expect(events.values == [.next(1), .next(2), .next(3)])
    subscription.dispose()
  }

  @Test func completesWhenEverySourceHasCompleted() {
    let a = PublishSubject<Int, TestError>()
    let b = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = a.merge(with: b).subscribe { events.append($0) }
    a.onNext(1)
    a.onCompleted()
    #expect(events.values == [.next(1)])
    b.onNext(2)
    b.onCompleted()
    #expect(events.values == [.next(1), .next(2), .completed])
    subscription.dispose()
  }

  @Test func firstFailureEndsTheStreamAndDisposesTheOtherSources() {
    let a = PublishSubject<Int, TestError>()
    let b = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = Observable.merge([a.asObservable(), b.asObservable()])
      .subscribe { events.append($0) }
    a.onError(TestError("a"))
    b.onNext(1)
    #expect(events.values == [.error(TestError("a"))])
    #expect(!b.hasObservers)
    subscription.dispose()
  }

  @Test func synchronousSourcesArePlayedInOrder() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.merge(Observable.of(1, 2), Observable.of(3))
      .subscribe { events.append($0) }
    #expect(events.values == [.next(1), .next(2), .next(3), .completed])
  }

  @Test func noSourcesCompletesAtOnce() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable<Int, Never>.merge([]).subscribe { events.append($0) }
    #expect(events.values == [.completed])
  }

  @Test func disposingDisposesEverySource() {
    let teardowns = Counter()
    let source = Observable<Int, Never>.create { _ in
      Disposables.create { teardowns.increment() }
    }
    let subscription = Observable.merge(source, source, source).subscribe { _ in }
    #expect(teardowns.value == 0)
    subscription.dispose()
    #expect(teardowns.value == 3)
  }

  @Test func disposingFromInsideOnNextDeliversNothingMore() {
    let a = PublishSubject<Int, Never>()
    let b = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let holder = LockedValue<(any Disposable)?>(nil)
    let subscription = Observable.merge(a.asObservable(), b.asObservable())
      .subscribe(onNext: { value in
        received.append(value)
        if value == 1 {
          b.onNext(2)  // queued behind the current callout
          holder.withLock { $0 }?.dispose()
          a.onNext(3)
        }
      })
    holder.withLock { $0 = subscription }
    a.onNext(1)
    b.onNext(4)
    #expect(received.values == [1])
    #expect(!a.hasObservers && !b.hasObservers)
  }
}
