import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct AssertNoFailureTests {
  @Test func passesValuesAndCompletion() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable<Int, TestError>.of(1, 2).assertNoFailure().subscribe { events.append($0) }
    #expect(events.values == [.next(1), .next(2), .completed])
  }
}
