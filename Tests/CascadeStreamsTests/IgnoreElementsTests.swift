import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct IgnoreElementsTests {
  @Test func keepsOnlyTheCompletion() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.of(1, 2, 3).ignoreElements().subscribe { events.append($0) }
    #expect(events.values == [.completed])
  }

  @Test func keepsTheFailure() {
    let source = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.ignoreElements().subscribe { events.append($0) }
    source.onNext(1)
    source.onError(TestError("e"))
    #expect(events.values == [.error(TestError("e"))])
    subscription.dispose()
  }
}
