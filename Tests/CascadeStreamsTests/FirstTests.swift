import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct FirstTests {
  @Test func emitsTheFirstValueAndDisposesUpstream() {
    let source = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.first().subscribe { events.append($0) }
    source.onNext(7)
    source.onNext(8)
    #expect(events.values == [.next(7), .completed])
    #expect(!source.hasObservers)
    subscription.dispose()
  }

  @Test func completesEmptyWhenTheSourceIsEmpty() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable<Int, Never>.empty().first().subscribe { events.append($0) }
    #expect(events.values == [.completed])
  }

  @Test func passesAFailure() {
    let events = Recorder<StreamEvent<Int, TestError>>()
    Observable<Int, TestError>.error(TestError("e")).first().subscribe { events.append($0) }
    #expect(events.values == [.error(TestError("e"))])
  }
}
