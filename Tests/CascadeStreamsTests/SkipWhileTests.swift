import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct SkipWhileTests {
  @Test func dropsValuesUntilThePredicateFailsOnce() {
    let checked = Recorder<Int>()
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.of(1, 2, 5, 1, 7).skip(while: { value in
      checked.append(value)
      return value < 3
    })
    .subscribe { events.append($0) }
    #expect(events.values == [.next(5), .next(1), .next(7), .completed])
    #expect(checked.values == [1, 2, 5])
  }

  @Test func failurePassesWhileSkipping() {
    let source = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.skip(while: { _ in true }).subscribe { events.append($0) }
    source.onNext(1)
    source.onError(TestError("e"))
    #expect(events.values == [.error(TestError("e"))])
    subscription.dispose()
  }
}
