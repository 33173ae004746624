import AsyncAlgorithms
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// The time limit only turns a hang into a failure: it counts the time the tests wait for their
// turn behind the other resource-checked tests (the stress test takes minutes on a busy machine),
// so it is far above what they need.
@Suite(.checksResources, .timeLimit(.minutes(30)))
struct AsyncBridgeTests {
  // MARK: Observable.task / Observable(operation:)

  @Test func taskEmitsItsResultThenCompletes() async {
    let answer = Observable.task { 42 }
    // A non-throwing operation makes a stream that cannot fail.
    let _: Infallible<Int> = answer
    #expect(await events(of: answer) == [.next(42), .completed])
  }

  @Test func taskFailsWithTheTypedError() async {
    let failing = Observable<Int, TestError>.task { () throws(TestError) in
      throw TestError("offline")
    }
    #expect(await events(of: failing) == [.error(TestError("offline"))])
  }

  @Test func taskWithUntypedThrowsFailsWithAnyError() async {
    let failing = Observable.task { () async throws -> Int in throw TestError("offline") }
    let received = await events(of: failing)
    #expect(received.count == 1)
    #expect(received.first?.failure as? TestError == TestError("offline"))
  }

  @Test func operationInitializerIsTheSameStream() async {
    let answer = Observable { () async -> Int in 7 }
    #expect(await events(of: answer) == [.next(7), .completed])
  }

  @Test func eachSubscriptionRunsTheOperationAgain() async {
    let runs = Counter()
    let stream = Observable.task { runs.increment() }
    #expect(await events(of: stream) == [.next(1), .completed])
    #expect(await events(of: stream) == [.next(2), .completed])
  }

  // MARK: Observable.run

  @Test func runSendsManyValuesThenCompletesWhenTheBodyReturns() async {
    let stream = Observable<Int, Never>.run { observer in
      for value in 1...3 {
        await Task.yield()
        observer.onNext(value)
      }
    }
    #expect(await events(of: stream) == [.next(1), .next(2), .next(3), .completed])
  }

  @Test func runFailsWhenTheBodyThrows() async {
    let stream = Observable<Int, TestError>.run { (observer) throws(TestError) in
      observer.onNext(1)
      throw TestError("broken")
    }
    #expect(await events(of: stream) == [.next(1), .error(TestError("broken"))])
  }

  // AT-01: nothing after the terminal event, whatever the body does after sending it.
  @Test func runKeepsTheGrammarWhenTheBodyTerminatesItself() async {
    let stream = Observable<Int, TestError>.run { (observer) throws(TestError) in
      observer.onNext(1)
      observer.onCompleted()
      observer.onNext(2)
      throw TestError("ignored")
    }
    #expect(await events(of: stream) == [.next(1), .completed])
  }

  // MARK: Observable(_ asyncSequence:)

  @Test func asyncStreamBecomesAnInfallibleStream() async {
    let (numbers, continuation) = AsyncStream<Int>.makeStream()
    for value in 1...3 { continuation.yield(value) }
    continuation.finish()
    let stream = Observable(numbers)
    let _: Infallible<Int> = stream
    #expect(await events(of: stream) == [.next(1), .next(2), .next(3), .completed])
  }

  @Test func asyncThrowingStreamFailureIsForwarded() async {
    let (numbers, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
    continuation.yield(1)
    continuation.finish(throwing: TestError("eof"))
    let received = await events(of: Observable(numbers))
    #expect(received.count == 2)
    #expect(received.first?.element == 1)
    #expect(received.last?.failure as? TestError == TestError("eof"))
  }

  @Test func roundTripKeepsTheTypedFailure() async {
    let source = Observable<Int, TestError>.create { observer in
      observer.onNext(1)
      observer.onNext(2)
      observer.onError(TestError("end"))
      return Disposables.empty
    }
    let roundTrip = Observable(source.values)
    let _: Observable<Int, TestError> = roundTrip
    #expect(await events(of: roundTrip) == [.next(1), .next(2), .error(TestError("end"))])
  }

  // MARK: swift-async-algorithms

  @Test func asyncAlgorithmsOperatorsComposeThroughTheBridges() async {
    let source = Observable.from([1, 1, 2, 2, 2, 3, 4, 4, 5])
    // Stream → AsyncSequence → async-algorithms operators → stream.
    let pairs = Observable(source.values.removeDuplicates().chunks(ofCount: 2))
    let _: Infallible<[Int]> = pairs
    #expect(await events(of: pairs) == [.next([1, 2]), .next([3, 4]), .next([5]), .completed])
  }
}

/// Subscribes to `stream` and returns every event it delivers, once it has terminated.
private func events<Element: Sendable, Failure: Error>(
  of stream: Observable<Element, Failure>
) async -> [StreamEvent<Element, Failure>] {
  let (delivered, continuation) = AsyncStream<StreamEvent<Element, Failure>>.makeStream()
  let subscription = stream.subscribe { event in
    continuation.yield(event)
    if event.isTerminal { continuation.finish() }
  }
  var received: [StreamEvent<Element, Failure>] = []
  for await event in delivered { received.append(event) }
  subscription.dispose()
  return received
}
