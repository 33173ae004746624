import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Streams made of plain values (`just`, `empty`, `of`, `from` an array, and `concat` of such)
/// know their elements, which a consumer may take without subscribing (a reactor's `mutate`);
/// subscribed, they behave as any stream of those values.
@Suite(.checksResources)
struct PlainValueStreamTests {
  @Test func plainValueStreamsKnowTheirElements() {
    #expect(Observable<Int, Never>.just(1).synchronousElements?.array == [1])
    #expect(Observable<Int, Never>.empty().synchronousElements?.array == [])
    #expect(Observable<Int, Never>.of(1, 2, 3).synchronousElements?.array == [1, 2, 3])
    #expect(Observable<Int, Never>.from([4, 5]).synchronousElements?.array == [4, 5])
    let concatenated = Observable<Int, Never>.concat(.just(1), .empty(), .of(2, 3), .from([4]))
    #expect(concatenated.synchronousElements?.array == [1, 2, 3, 4])
    #expect(Observable<Int, Never>.just(1).asObservable().synchronousElements?.array == [1])
  }

  @Test func otherStreamsDoNot() {
    let subject = PublishSubject<Int, Never>()
    #expect(subject.asObservable().synchronousElements == nil)
    #expect(Observable<Int, Never>.from(1...3).synchronousElements == nil)
    #expect(Observable<Int, Never>.just(1).map { $0 }.asObservable().synchronousElements == nil)
    #expect(
      Observable<Int, Never>.concat(.just(1), subject.asObservable()).synchronousElements == nil
    )
    #expect(Observable<Int, Never>.never().synchronousElements == nil)
  }

  @Test func subscribedTheyEmitTheirElementsThenComplete() {
    let streams: [(Observable<Int, Never>, [Int])] = [
      (.just(1), [1]),
      (.empty(), []),
      (.of(1, 2, 3), [1, 2, 3]),
      (.concat(.just(1), .of(2, 3)), [1, 2, 3]),
    ]
    for (stream, elements) in streams {
      // Each subscriber gets all of them.
      for _ in 0..<2 {
        let events = Recorder<StreamEvent<Int, Never>>()
        _ = stream.subscribe { events.append($0) }
        #expect(events.values == elements.map { .next($0) } + [.completed])
      }
    }
  }

  @Test func aSubscriberThatEndsStopsTheElementsBeforeTheNext() {
    let produced = Recorder<Int>()
    let taken = Recorder<StreamEvent<Int, Never>>()
    _ = Observable<Int, Never>.of(1, 2, 3)
      .do(onNext: { produced.append($0) })
      .take(1)
      .subscribe { taken.append($0) }
    #expect(taken.values == [.next(1), .completed])
    #expect(produced.values == [1])
  }

  @Test func aPlainValueStreamConcatenatedWithAnotherPlaysBothInOrder() {
    let subject = BehaviorSubject<Int, Never>(9)
    let events = Recorder<StreamEvent<Int, Never>>()
    let subscription = Observable.concat(.of(1, 2), subject.asObservable().take(1))
      .subscribe { events.append($0) }
    #expect(events.values == [.next(1), .next(2), .next(9), .completed])
    subscription.dispose()
  }
}
