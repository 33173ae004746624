import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct RetryTests {
  @Test func resubscribesUpToTheTotalNumberOfAttempts() {
    let subscriptions = Counter()
    let source = Observable<Int, TestError>.create { observer in
      let attempt = subscriptions.increment()
      observer.onNext(attempt)
      observer.onError(TestError("attempt \(attempt)"))
      return Disposables.empty
    }
    let events = Recorder<StreamEvent<Int, TestError>>()
    source.retry(3).subscribe { events.append($0) }
    #expect(subscriptions.value == 3)
    #expect(events.values == [.next(1), .next(2), .next(3), .error(TestError("attempt 3"))])
  }

  @Test func stopsRetryingOnSuccess() {
    let subscriptions = Counter()
    let source = Observable<String, TestError>.create { observer in
      if subscriptions.increment() < 3 {
        observer.onError(TestError("not yet"))
      } else {
        observer.onNext("ok")
        observer.onCompleted()
      }
      return Disposables.empty
    }
    let events = Recorder<StreamEvent<String, TestError>>()
    source.retry(5).subscribe { events.append($0) }
    #expect(subscriptions.value == 3)
    #expect(events.values == [.next("ok"), .completed])
  }

  @Test func oneAttemptMeansNoRetry() {
    let subscriptions = Counter()
    let source = Observable<Int, TestError>.create { observer in
      subscriptions.increment()
      observer.onError(TestError("e"))
      return Disposables.empty
    }
    let events = Recorder<StreamEvent<Int, TestError>>()
    source.retry(1).subscribe { events.append($0) }
    #expect(subscriptions.value == 1)
    #expect(events.values == [.error(TestError("e"))])
  }

  @Test func retriesAnAsynchronousFailureAndDisposesTheFailedAttempt() {
    let source = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscriptions = Counter()
    let subscription = Observable.deferred {
      subscriptions.increment()
      return source.asObservable()
    }
    .retry(2)
    .subscribe { events.append($0) }
    source.onNext(1)
    // The subject stays failed: the second attempt receives its failure at once.
    source.onError(TestError("e"))
    #expect(subscriptions.value == 2)
    #expect(events.values == [.next(1), .error(TestError("e"))])
    subscription.dispose()
  }

  @Test func retryForeverKeepsResubscribing() {
    let subscriptions = Counter()
    let source = Observable<Int, TestError>.create { observer in
      let attempt = subscriptions.increment()
      if attempt < 1_000 {
        observer.onError(TestError("e"))
      } else {
        observer.onNext(attempt)
        observer.onCompleted()
      }
      return Disposables.empty
    }
    let events = Recorder<StreamEvent<Int, TestError>>()
    source.retry().subscribe { events.append($0) }
    #expect(events.values == [.next(1_000), .completed])
  }

  @Test func disposingStopsTheCurrentAttempt() {
    let source = PublishSubject<Int, TestError>()
    let subscription = source.retry().subscribe { _ in }
    #expect(source.hasObservers)
    subscription.dispose()
    #expect(!source.hasObservers)
  }
}
