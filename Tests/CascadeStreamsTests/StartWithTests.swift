import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct StartWithTests {
  @Test func emitsTheElementsFirst() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.of(3, 4).startWith(1, 2).subscribe { events.append($0) }
    #expect(events.values == [.next(1), .next(2), .next(3), .next(4), .completed])
  }

  @Test func anEndedSubscriberStopsThemAndNeverSubscribesUpstream() {
    let subscriptions = Counter()
    let source = Observable<Int, Never>.create { observer in
      subscriptions.increment()
      observer.onNext(3)
      return Disposables.empty
    }
    let received = Recorder<Int>()
    source.startWith(1, 2).take(1).subscribe(onNext: { received.append($0) })
    #expect(received.values == [1])
    #expect(subscriptions.value == 0)
  }

  /// Combine's spelling: the same elements first, and the same early end.
  @Test func prependIsStartWith() {
    let events = Recorder<StreamEvent<Int, Never>>()
    Observable.of(3, 4).prepend(1, 2).subscribe { events.append($0) }
    #expect(events.values == [.next(1), .next(2), .next(3), .next(4), .completed])

    let subscriptions = Counter()
    let source = Observable<Int, Never>.create { observer in
      subscriptions.increment()
      observer.onNext(3)
      return Disposables.empty
    }
    let received = Recorder<Int>()
    source.prepend(1, 2).take(1).subscribe(onNext: { received.append($0) })
    #expect(received.values == [1])
    #expect(subscriptions.value == 0)
  }
}
