import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct FlatMapTests {
  @Test func mergesTheInnerStreams() {
    let outer = PublishSubject<Int, TestError>()
    let inners = [PublishSubject<String, TestError>(), PublishSubject<String, TestError>()]
    let events = Recorder<StreamEvent<String, TestError>>()
    let subscription = outer.flatMap { inners[$0] }.subscribe { events.append($0) }
    outer.onNext(0)
    inners[0].onNext("a")
    outer.onNext(1)
    inners[1].onNext("b")
    inners[0].onNext("c")
    #expect(events.values == [.next("a"), .next("b"), .next("c")])
    subscription.dispose()
    #expect(!inners[0].hasObservers && !inners[1].hasObservers && !outer.hasObservers)
  }

  @Test func completesOnceTheOuterAndEveryInnerHaveCompleted() {
    let outer = PublishSubject<Int, TestError>()
    let inners = [PublishSubject<String, TestError>(), PublishSubject<String, TestError>()]
    let events = Recorder<StreamEvent<String, TestError>>()
    let subscription = outer.flatMap { inners[$0] }.subscribe { events.append($0) }
    outer.onNext(0)
    outer.onNext(1)
    outer.onCompleted()
    inners[0].onCompleted()
    #expect(events.values.isEmpty)
    inners[1].onNext("last")
    inners[1].onCompleted()
    #expect(events.values == [.next("last"), .completed])
    subscription.dispose()
  }

  @Test func anInnerFailureFailsAndDisposesEverything() {
    let outer = PublishSubject<Int, TestError>()
    let inners = [PublishSubject<String, TestError>(), PublishSubject<String, TestError>()]
    let events = Recorder<StreamEvent<String, TestError>>()
    let subscription = outer.flatMap { inners[$0] }.subscribe { events.append($0) }
    outer.onNext(0)
    outer.onNext(1)
    inners[1].onError(TestError("inner"))
    #expect(events.values == [.error(TestError("inner"))])
    #expect(!outer.hasObservers && !inners[0].hasObservers)
    subscription.dispose()
  }

  @Test func synchronousInners() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.of(1, 2, 3).flatMap { Observable.of($0, $0 * 10) }.subscribe { events.append($0) }
    #expect(
      events.values == [.next(1), .next(10), .next(2), .next(20), .next(3), .next(30), .completed]
    )
  }

  @Test func disposingFromInsideOnNextDeliversNothingMore() {
    let outer = PublishSubject<Int, Never>()
    let inners = [PublishSubject<Int, Never>(), PublishSubject<Int, Never>()]
    let received = Recorder<Int>()
    let holder = LockedValue<(any Disposable)?>(nil)
    let subscription = outer.flatMap { inners[$0] }
      .subscribe(onNext: { value in
        received.append(value)
        if value == 1 {
          inners[1].onNext(2)  // queued behind the current callout
          holder.withLock { $0 }?.dispose()
          inners[0].onNext(3)
        }
      })
    holder.withLock { $0 = subscription }
    outer.onNext(0)
    outer.onNext(1)
    inners[0].onNext(1)
    inners[1].onNext(4)
    #expect(received.values == [1])
    #expect(!outer.hasObservers && !inners[0].hasObservers && !inners[1].hasObservers)
  }
}
