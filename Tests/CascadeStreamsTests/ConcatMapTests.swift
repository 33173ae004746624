import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ConcatMapTests {
  @Test func innersRunOneAtATimeInOrder() {
    let outer = PublishSubject<Int, TestError>()
    let inners = (0..<3).map { _ in PublishSubject<String, TestError>() }
    let transformed = Recorder<Int>()
    let events = Recorder<StreamEvent<String, TestError>>()
    let subscription = outer.concatMap { index in
      transformed.append(index)
      return inners[index]
    }
    .subscribe { events.append($0) }
    outer.onNext(0)
    outer.onNext(1)
    outer.onNext(2)
    outer.onCompleted()
    #expect(transformed.values == [0])
    #expect(!inners[1].hasObservers)
    inners[1].onNext("early")  // not subscribed yet
    inners[0].onNext("a")
    inners[0].onCompleted()
    #expect(transformed.values == [0, 1])
    inners[1].onNext("b")
    inners[1].onCompleted()
    inners[2].onNext("c")
    #expect(events.values == [.next("a"), .next("b"), .next("c")])
    inners[2].onCompleted()
    #expect(events.values == [.next("a"), .next("b"), .next("c"), .completed])
    subscription.dispose()
  }

  @Test func synchronousInnersKeepOrder() {
    let received = Recorder<Int>()
    Observable.from(1...1_000).concatMap { Observable.of($0, -$0) }
      .subscribe(onNext: { received.append($0) })
    #expect(received.values == (1...1_000).flatMap { [$0, -$0] })
  }

  @Test func anInnerFailureFailsAndDropsTheBuffer() {
    let outer = PublishSubject<Int, TestError>()
    let inner = PublishSubject<Int, TestError>()
    let transformed = Counter()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = outer.concatMap { _ in
      transformed.increment()
      return inner
    }
    .subscribe { events.append($0) }
    outer.onNext(1)
    outer.onNext(2)
    inner.onError(TestError("inner"))
    #expect(events.values == [.error(TestError("inner"))])
    #expect(transformed.value == 1)
    #expect(!outer.hasObservers)
    subscription.dispose()
  }

  @Test func disposingDisposesTheOuterAndTheCurrentInner() {
    let outer = PublishSubject<Int, Never>()
    let inner = PublishSubject<Int, Never>()
    let subscription = outer.concatMap { _ in inner }.subscribe { _ in }
    outer.onNext(1)
    #expect(inner.hasObservers)
    subscription.dispose()
    #expect(!inner.hasObservers && !outer.hasObservers)
  }
}
