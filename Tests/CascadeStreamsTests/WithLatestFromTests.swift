import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct WithLatestFromTests {
  @Test func dropsValuesBeforeTheOtherStreamEmitted() {
    let source = PublishSubject<Int, TestError>()
    let other = PublishSubject<String, TestError>()
    let events = Recorder<StreamEvent<String, TestError>>()
    let subscription = source.withLatestFrom(other) { "\($0)\($1)" }
      .subscribe { events.append($0) }
    source.onNext(1)
    other.onNext("a")
    other.onNext("b")
    source.onNext(2)
    source.onNext(3)
    other.onNext("c")
    #expect(events.values == [.next("2b"), .next("3b")])
    subscription.dispose()
  }

  @Test func completesWithTheSourceNotWithTheOtherStream() {
    let source = PublishSubject<Int, TestError>()
    let other = PublishSubject<String, TestError>()
    let events = Recorder<StreamEvent<String, TestError>>()
    let subscription = source.withLatestFrom(other).subscribe { events.append($0) }
    other.onNext("a")
    other.onCompleted()
    source.onNext(1)
    source.onCompleted()
    #expect(events.values == [.next("a"), .completed])
    subscription.dispose()
  }

  @Test func failureOfTheOtherStreamFails() {
    let source = PublishSubject<Int, TestError>()
    let other = PublishSubject<String, TestError>()
    let events = Recorder<StreamEvent<String, TestError>>()
    let subscription = source.withLatestFrom(other).subscribe { events.append($0) }
    other.onError(TestError("other"))
    source.onNext(1)
    #expect(events.values == [.error(TestError("other"))])
    #expect(!source.hasObservers)
    subscription.dispose()
  }

  @Test func aCurrentValueIsAvailableToTheFirstValue() {
    let state = BehaviorSubject<String, Never>("ready")
    let received = Recorder<String>()
    Observable.of(1, 2).withLatestFrom(state) { "\($0) \($1)" }
      .subscribe(onNext: { received.append($0) })
    #expect(received.values == ["1 ready", "2 ready"])
  }
}
