import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct CombineLatestTests {
  @Test func waitsForEverySourceThenEmitsOnEachValue() {
    let a = PublishSubject<Int, TestError>()
    let b = PublishSubject<String, TestError>()
    let events = Recorder<StreamEvent<String, TestError>>()
    let subscription = a.combineLatest(b) { "\($0)\($1)" }.subscribe { events.append($0) }
    a.onNext(1)
    a.onNext(2)
    #expect(events.values.isEmpty)
    b.onNext("x")
    a.onNext(3)
    b.onNext("y")
    #expect(events.values == [.next("2x"), .next("3x"), .next("3y")])
    subscription.dispose()
  }

  @Test func completesWhenEverySourceHasCompleted() {
    let a = PublishSubject<Int, TestError>()
    let b = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = a.combineLatest(b, +).subscribe { events.append($0) }
    a.onNext(1)
    b.onNext(10)
    a.onCompleted()
    b.onNext(20)
    #expect(events.values == [.next(11), .next(21)])
    b.onCompleted()
    #expect(events.values == [.next(11), .next(21), .completed])
    subscription.dispose()
  }

  @Test func completesAtOnceWhenASourceCompletesWithoutAValue() {
    let a = PublishSubject<Int, TestError>()
    let b = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = a.combineLatest(b, +).subscribe { events.append($0) }
    a.onNext(1)
    b.onCompleted()
    #expect(events.values == [.completed])
    #expect(!a.hasObservers)
    subscription.dispose()
  }

  @Test func failureOfOneSourceFailsAndDisposesTheOthers() {
    let a = PublishSubject<Int, TestError>()
    let b = PublishSubject<Int, TestError>()
    let events = Recorder<StreamEvent<Int, TestError>>()
    let subscription = a.combineLatest(b, +).subscribe { events.append($0) }
    a.onNext(1)
    b.onError(TestError("b"))
    a.onNext(2)
    #expect(events.values == [.error(TestError("b"))])
    #expect(!a.hasObservers)
    subscription.dispose()
  }

  @Test func threeSources() {
    let a = PublishSubject<Int, Never>()
    let b = PublishSubject<Int, Never>()
    let c = PublishSubject<Int, Never>()
    let received = Recorder<Int>()
    let subscription = a.combineLatest(b, c) { $0 * 100 + $1 * 10 + $2 }
      .subscribe(onNext: { received.append($0) })
    a.onNext(1)
    b.onNext(2)
    #expect(received.values.isEmpty)
    c.onNext(3)
    b.onNext(5)
    #expect(received.values == [123, 153])
    subscription.dispose()
  }

  @Test func tupleForms() {
    let pairs = Recorder<String>()
    Observable.just(1).combineLatest(Observable.just("a"))
      .subscribe(onNext: { pairs.append("\($0.0)\($0.1)") })
    Observable.just(1).combineLatest(Observable.just("b"), Observable.just(true))
      .subscribe(onNext: { pairs.append("\($0.0)\($0.1)\($0.2)") })
    #expect(pairs.values == ["1a", "1btrue"])
  }

  @Test func arrayOfSources() {
    let sources = (0..<4).map { _ in PublishSubject<Int, Never>() }
    let events = Recorder<StreamEvent<[Int], Never>>()
    let subscription = Observable.combineLatest(sources.map { $0.asObservable() })
      .subscribe { events.append($0) }
    for (index, source) in sources.enumerated() { source.onNext(index) }
    sources[2].onNext(20)
    for source in sources { source.onCompleted() }
    #expect(events.values == [.next([0, 1, 2, 3]), .next([0, 1, 20, 3]), .completed])
    subscription.dispose()
  }

  @Test func emptyArrayCompletesAtOnce() {
    let events = Recorder<StreamEvent<[Int], Never>>()
    Observable<Int, Never>.combineLatest([]).subscribe { events.append($0) }
    #expect(events.values == [.completed])
  }

  @Test func disposingDisposesEverySource() {
    let a = PublishSubject<Int, Never>()
    let b = PublishSubject<Int, Never>()
    let subscription = a.combineLatest(b, +).subscribe { _ in }
    #expect(a.hasObservers && b.hasObservers)
    subscription.dispose()
    #expect(!a.hasObservers && !b.hasObservers)
  }

  @Test func aValueSentFromInsideTheCallbackIsDeliveredAfterIt() {
    let a = PublishSubject<Int, Never>()
    let b = PublishSubject<Int, Never>()
    let received = Recorder<String>()
    let subscription = a.combineLatest(b) { "\($0)\($1)" }
      .subscribe(onNext: { value in
        received.append("enter \(value)")
        if value == "11" { a.onNext(2) }
        received.append("exit \(value)")
      })
    a.onNext(1)
    b.onNext(1)
    #expect(received.values == ["enter 11", "exit 11", "enter 21", "exit 21"])
    subscription.dispose()
  }
}
