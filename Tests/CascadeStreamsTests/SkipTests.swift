import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct SkipTests {
  @Test func dropsTheFirstValues() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.of(1, 2, 3, 4).skip(2).subscribe { events.append($0) }
    #expect(events.values == [.next(3), .next(4), .completed])
  }

  @Test func terminalEventsPassWhileSkipping() {
    let source = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = source.skip(5).subscribe { events.append($0) }
    source.onNext(1)
    source.onError(TestError("e"))
    #expect(events.values == [.error(TestError("e"))])
    subscription.dispose()
  }

  @Test func zeroSkipsNothing() {
    let received = Recorder<Int>()
    Observable.of(1, 2).skip(0).subscribe(onNext: { received.append($0) })
    #expect(received.values == [1, 2])
  }
}
