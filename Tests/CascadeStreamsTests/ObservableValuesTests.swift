import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// The time limit only turns a hang into a failure: it counts the time the tests wait for their
// turn behind the other resource-checked tests (the stress test takes minutes on a busy machine),
// so it is far above what they need.
@Suite(.checksResources, .timeLimit(.minutes(30)))
struct ObservableValuesTests {
  @Test func infallibleStreamIsANonThrowingSequence() async {
    var received: [Int] = []
    // No `try`: the sequence of a `Failure == Never` stream does not throw.
    for await value in Observable.from([1, 2, 3]).map({ $0 * 10 }).values {
      received.append(value)
    }
    #expect(received == [10, 20, 30])
  }

  @Test func failingStreamThrowsItsTypedFailureAfterItsValues() async throws {
    let stream = Observable<Int, TestError>.create { observer in
      observer.onNext(1)
      observer.onNext(2)
      observer.onError(TestError("boom"))
      return Disposables.empty
    }
    var received: [Int] = []
    var iterator = stream.values.makeAsyncIterator()
    do {
      while let value = try await iterator.next() { received.append(value) }
      Issue.record("the loop ended without the failure")
    } catch {
      // `error` is a `TestError`, not `any Error`: the iterator uses typed throws.
      let failure: TestError = error
      #expect(failure == TestError("boom"))
    }
    #expect(received == [1, 2])
    // The failure is thrown once; afterwards the iterator is finished.
    #expect(try await iterator.next() == nil)
  }

  @Test func eachIterationSubscribesAnew() async {
    let subscriptions = Counter()
    let stream = Observable<Int, Never>.deferred {
      subscriptions.increment()
      return Observable.from([1, 2])
    }
    let values = stream.values
    var first: [Int] = []
    for await value in values { first.append(value) }
    var second: [Int] = []
    for await value in values { second.append(value) }
    #expect(first == [1, 2])
    #expect(second == [1, 2])
    #expect(subscriptions.value == 2)
  }

  @Test func unboundedBufferKeepsEveryValue() async {
    let subject = PublishSubject<Int, Never>()
    var iterator = subject.values.makeAsyncIterator()
    for value in 0..<1_000 { subject.onNext(value) }
    subject.onCompleted()
    var received: [Int] = []
    while let value = await iterator.next() { received.append(value) }
    #expect(received == Array(0..<1_000))
  }

  @Test func bufferingNewestDropsTheOldestWhenFull() async {
    let subject = PublishSubject<Int, Never>()
    var iterator = subject.values(bufferingPolicy: .bufferingNewest(3)).makeAsyncIterator()
    // Nobody consumes while ten values arrive: only the newest three stay.
    for value in 1...10 { subject.onNext(value) }
    subject.onCompleted()
    var received: [Int] = []
    while let value = await iterator.next() { received.append(value) }
    #expect(received == [8, 9, 10])
  }

  @Test func bufferingOldestDropsNewValuesWhenFull() async {
    let subject = PublishSubject<Int, Never>()
    var iterator = subject.values(bufferingPolicy: .bufferingOldest(3)).makeAsyncIterator()
    for value in 1...10 { subject.onNext(value) }
    subject.onCompleted()
    var received: [Int] = []
    while let value = await iterator.next() { received.append(value) }
    #expect(received == [1, 2, 3])
  }

  @Test func boundedBufferNeverDropsTheFailure() async {
    let subject = PublishSubject<Int, TestError>()
    var iterator = subject.values(bufferingPolicy: .bufferingOldest(2)).makeAsyncIterator()
    for value in 1...5 { subject.onNext(value) }
    subject.onError(TestError("late"))
    var received: [Int] = []
    await #expect(throws: TestError("late")) {
      while let value = try await iterator.next() { received.append(value) }
    }
    #expect(received == [1, 2])
  }

  @Test func bufferedValuesDrainAsTheConsumerCatchesUp() async {
    let subject = PublishSubject<Int, Never>()
    var iterator = subject.values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
    subject.onNext(1)
    #expect(await iterator.next() == 1)
    subject.onNext(2)
    subject.onNext(3)
    #expect(await iterator.next() == 3)
    subject.onNext(4)
    subject.onCompleted()
    #expect(await iterator.next() == 4)
    #expect(await iterator.next() == nil)
  }

  @Test func droppingTheIteratorDisposesTheSubscription() async {
    let teardowns = Counter()
    let subject = PublishSubject<Int, Never>()
    let stream = Observable<Int, Never>.create { observer in
      let inner = subject.subscribe(observer)
      return Disposables.create {
        inner.dispose()
        teardowns.increment()
      }
    }
    do {
      var iterator = stream.values.makeAsyncIterator()
      subject.onNext(1)
      #expect(await iterator.next() == 1)
      #expect(teardowns.value == 0)
    }
    #expect(teardowns.value == 1)
    #expect(!subject.hasObservers)
  }

  @Test func breakingOutOfTheLoopDisposesTheSubscription() async {
    let teardowns = Counter()
    let naturals = Observable<Int, Never>.create { observer in
      // Pushes synchronously until the subscription ends or the buffer has had enough.
      var n = 0
      while observer.lifetime?.hasEnded != true && n < 100 {
        observer.onNext(n)
        n += 1
      }
      return Disposables.create { teardowns.increment() }
    }
    var received: [Int] = []
    for await value in naturals.values {
      received.append(value)
      if received.count == 3 { break }
    }
    #expect(received == [0, 1, 2])
    #expect(teardowns.value == 1)
  }

  @Test func completionDisposesTheSubscription() async {
    let teardowns = Counter()
    let subject = PublishSubject<Int, Never>()
    let stream = Observable<Int, Never>.create { observer in
      let inner = subject.subscribe(observer)
      return Disposables.create {
        inner.dispose()
        teardowns.increment()
      }
    }
    var iterator = stream.values.makeAsyncIterator()
    subject.onNext(1)
    subject.onCompleted()
    // The subscription ended with the stream, before the buffered value was consumed.
    #expect(teardowns.value == 1)
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == nil)
  }
}
