import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct TakeTests {
  @Test func emitsTheFirstValuesThenCompletesAndDisposesUpstream() {
    let source = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.take(2).subscribe { events.append($0) }
    source.onNext(1)
    source.onNext(2)
    source.onNext(3)
    #expect(events.values == [.next(1), .next(2), .completed])
    #expect(!source.hasObservers)
    subscription.dispose()
  }

  @Test func terminalEventsBeforeTheCountPassThrough() {
    let failed = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.error(TestError("early")).take(2).subscribe { failed.append($0) }
    let completed = Recorder<StreamEvent<Int, Never>>()
    Observable.of(1).take(2).subscribe { completed.append($0) }
    #expect(failed.values == [.error(TestError("early"))])
    #expect(completed.values == [.next(1), .completed])
  }

  @Test func zeroCompletesWithoutSubscribing() {
    let subscriptions = Counter()
    let source = Observable<Int, Never>.create { _ in
      subscriptions.increment()
      return Disposables.empty
    }
    let events = Recorder<StreamEvent<Int, Never>>()
    source.take(0).subscribe { events.append($0) }
    #expect(events.values == [.completed])
    #expect(subscriptions.value == 0)
  }

  @Test func stopsASynchronousInfiniteProducer() {
    let produced = Counter()
    let teardowns = Counter()
    let naturals = Observable<Int, Never>.create { observer in
      var n = 0
      while observer.lifetime?.hasEnded != true {
        produced.increment()
        observer.onNext(n)
        n += 1
      }
      return Disposables.create { teardowns.increment() }
    }
    let events = Recorder<StreamEvent<Int, Never>>()
    naturals.map { $0 * 2 }.take(3).subscribe { events.append($0) }
    #expect(events.values == [.next(0), .next(2), .next(4), .completed])
    #expect(produced.value == 3)
    #expect(teardowns.value == 1)
  }

  @Test func stopsASynchronousSequence() {
    let received = Recorder<Int>()
    Observable.from(1...).take(3).subscribe(onNext: { received.append($0) })
    #expect(received.values == [1, 2, 3])
  }
}
