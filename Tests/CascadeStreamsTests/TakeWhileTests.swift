import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct TakeWhileTests {
  @Test func completesAtTheFirstValueThatFailsThePredicate() {
    let source = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.take(while: { $0 < 3 }).subscribe { events.append($0) }
    source.onNext(1)
    source.onNext(2)
    source.onNext(5)
    source.onNext(1)
    #expect(events.values == [.next(1), .next(2), .completed])
    #expect(!source.hasObservers)
    subscription.dispose()
  }

  @Test func passesTerminalEvents() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.error(TestError("e")).take(while: { _ in true })
      .subscribe { events.append($0) }
    #expect(events.values == [.error(TestError("e"))])
  }

  @Test func stopsASynchronousSequence() {
    let received = Recorder<Int>()
    Observable.from(1...).take(while: { $0 < 4 }).subscribe(onNext: { received.append($0) })
    #expect(received.values == [1, 2, 3])
  }
}
