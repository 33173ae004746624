import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct CatchTests {
  struct OtherError: Error, Equatable {}

  @Test func switchesToTheRecoveryStreamOnFailure() {
    let source = PublishSubject<Int, TestError>()
    let recovery = PublishSubject<Int, OtherError>()
    let failures = Recorder<TestError>()
    let events = Recorder<StreamEvent<Int, OtherError>>()
    let subscription = source.catch { failure in
      failures.append(failure)
      return recovery
    }
    .subscribe { events.append($0) }
    source.onNext(1)
    #expect(!recovery.hasObservers)
    source.onError(TestError("boom"))
    #expect(failures.values == [TestError("boom")])
    #expect(!source.hasObservers)
    recovery.onNext(2)
    recovery.onError(OtherError())
    #expect(events.values == [.next(1), .next(2), .error(OtherError())])
    subscription.dispose()
  }

  /// ReactiveSwift's spelling: the same switch to the recovery stream.
  @Test func flatMapErrorIsCatch() {
    let source = PublishSubject<Int, TestError>()
    let failures = Recorder<TestError>()
    let events = Recorder<StreamEvent<Int, Never>>()
    let subscription = source.flatMapError { failure -> Observable<Int, Never> in
      failures.append(failure)
      return Observable.just(0)
    }
    .subscribe { events.append($0) }
    source.onNext(1)
    source.onError(TestError("boom"))
    #expect(failures.values == [TestError("boom")])
    #expect(!source.hasObservers)
    #expect(events.values == [.next(1), .next(0), .completed])
    subscription.dispose()
  }

  @Test func completionPassesWithoutCallingTheHandler() {
    let calls = Counter()
    let events = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.of(1).catch { _ in
      calls.increment()
      return Observable<Int, TestError>.empty()
    }
    .subscribe { events.append($0) }
    #expect(events.values == [.next(1), .completed])
    #expect(calls.value == 0)
  }

  @Test func disposingDisposesTheRecoveryStream() {
    let recovery = PublishSubject<Int, Never>()
    let subscription = Observable<Int, TestError>.error(TestError("e")).catch { _ in recovery }
      .subscribe { _ in }
    #expect(recovery.hasObservers)
    subscription.dispose()
    #expect(!recovery.hasObservers)
  }

  @Test func catchAndReturnEmitsTheElementThenCompletes() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable<Int, TestError>.create { observer in
      observer.onNext(1)
      observer.onError(TestError("e"))
      return Disposables.empty
    }
    .catchAndReturn(0)
    .subscribe { events.append($0) }
    #expect(events.values == [.next(1), .next(0), .completed])
  }

  @Test func replaceErrorEmitsTheElementThenCompletes() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable<Int, TestError>.error(TestError("e")).replaceError(with: -1)
      .subscribe { events.append($0) }
    #expect(events.values == [.next(-1), .completed])
  }
}
