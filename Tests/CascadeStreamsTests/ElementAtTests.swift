import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ElementAtTests {
  @Test func emitsTheValueAtTheIndexThenCompletes() {
    let source = PublishSubject<String, TestError>()
    let events = Recorder<StreamEvent<String, TestError>>()
    let subscription = source.element(at: 1).subscribe { events.append($0) }
    source.onNext("a")
    source.onNext("b")
    source.onNext("c")
    #expect(events.values == [.next("b"), .completed])
    #expect(!source.hasObservers)
    subscription.dispose()
  }

  @Test func completesEmptyWhenTheSourceIsTooShort() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.of(1, 2).element(at: 5).subscribe { events.append($0) }
    #expect(events.values == [.completed])
  }
}
