import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Synchronization
import Testing

/// The bridges between streams and `async` code under real threads. Producers run on threads of
/// their own, and the tests await signals: no thread of the cooperative pool blocks.
// The time limit only turns a hang into a failure: it counts the time the tests wait for their
// turn behind the other resource-checked tests (the stress test takes minutes on a busy machine),
// so it is far above what they need.
@Suite(.checksResources, .timeLimit(.minutes(30)))
struct AsyncBridgeConcurrencyTests {
  // MARK: values: cancelling the consumer

  @Test func cancellingTheConsumingTaskDisposesTheSubscription() async {
    let teardowns = Counter()
    let subject = PublishSubject<Int, Never>()
    let subscribed = Signal()
    let stream = Observable<Int, Never>.create { observer in
      let inner = subject.subscribe(observer)
      subscribed.fire()
      return Disposables.create {
        inner.dispose()
        teardowns.increment()
      }
    }
    let consumed = Counter()
    let consumer = Task {
      for await _ in stream.values { consumed.increment() }
      return "ended quietly"
    }
    // The loop has subscribed once `create` has run (it subscribes to the subject first).
    #expect(await subscribed.wait())
    #expect(subject.hasObservers)
    subject.onNext(1)
    #expect(await consumed.wait { $0 == 1 })
    consumer.cancel()
    // Cancellation ends the loop without an error, and the subscription is gone.
    #expect(await consumer.value == "ended quietly")
    #expect(teardowns.value == 1)
    #expect(!subject.hasObservers)
  }

  @Test func valuesSentFromAnotherThreadArriveInOrder() async {
    let subject = PublishSubject<Int, Never>()
    var iterator = subject.values.makeAsyncIterator()
    let produced = Signal()
    Thread {
      for value in 0..<10_000 { subject.onNext(value) }
      subject.onCompleted()
      produced.fire()
    }
    .start()
    var received: [Int] = []
    while let value = await iterator.next() { received.append(value) }
    #expect(await produced.wait())
    #expect(received == Array(0..<10_000))
  }

  @Test func droppingIteratorsWhileAProducerSendsLeavesNothingBehind() async {
    let subject = PublishSubject<Int, Never>()
    let stop = Counter()
    let stopped = Signal()
    Thread {
      var value = 0
      while stop.value == 0 {
        subject.onNext(value)
        value += 1
      }
      stopped.fire()
    }
    .start()
    for _ in 0..<200 {
      var iterator = subject.values(bufferingPolicy: .bufferingNewest(4)).makeAsyncIterator()
      _ = await iterator.next()
    }
    stop.increment()
    #expect(await stopped.wait())
    // Dropping an iterator disposes its subscription before the drop returns (its buffer's
    // termination runs as it goes), on this task: none is left, whatever the producer did.
    #expect(!subject.hasObservers)
  }

  // MARK: Disposing cancels the task

  // The stream form of AT-35 (cancellation is not failure): a disposed `run` delivers neither its
  // later values nor the `CancellationError` its body throws.
  @Test func disposingRunCancelsTheTask() async {
    let cancelHandlers = Counter()
    let sawCancellation = Counter()
    let finished = Counter()
    let received = Recorder<String>()
    let stream = Observable<Int, any Error>.run { observer in
      defer { finished.increment() }
      try await withTaskCancellationHandler {
        observer.onNext(1)
        do {
          try await suspendUntilCancelled()
        } catch {
          if Task.isCancelled, error is CancellationError { sawCancellation.increment() }
          observer.onNext(2)
          throw error
        }
      } onCancel: {
        cancelHandlers.increment()
      }
    }
    let subscription = stream.subscribe(
      onNext: { received.append("next(\($0))") },
      onError: { received.append("error(\($0))") },
      onCompleted: { received.append("completed") }
    )
    #expect(await received.wait { $0 == ["next(1)"] })
    subscription.dispose()
    // The body has returned: its late `onNext(2)` and its throw are behind it.
    #expect(await finished.wait { $0 == 1 })
    #expect(cancelHandlers.value == 1)
    #expect(sawCancellation.value == 1)
    #expect(received.values == ["next(1)"])
  }

  @Test func disposingTaskCancelsTheOperation() async {
    let cancelHandlers = Counter()
    let started = Counter()
    let finished = Counter()
    let received = Recorder<String>()
    let stream = Observable<Int, any Error>.task {
      defer { finished.increment() }
      return try await withTaskCancellationHandler {
        started.increment()
        try await suspendUntilCancelled()
        return 1
      } onCancel: {
        cancelHandlers.increment()
      }
    }
    let subscription = stream.subscribe(
      onNext: { received.append("next(\($0))") },
      onError: { received.append("error(\($0))") },
      onCompleted: { received.append("completed") }
    )
    #expect(await started.wait { $0 == 1 })
    subscription.dispose()
    #expect(await finished.wait { $0 == 1 })
    #expect(cancelHandlers.value == 1)
    #expect(received.values.isEmpty)
  }

  @Test func disposingTheAsyncSequenceBridgeCancelsTheIteration() async {
    let terminations = Recorder<String>()
    let (numbers, continuation) = AsyncStream<Int>.makeStream()
    continuation.onTermination = { termination in
      switch termination {
      case .cancelled: terminations.append("cancelled")
      case .finished: terminations.append("finished")
      @unknown default: terminations.append("unknown")
      }
    }
    let received = Recorder<StreamEvent<Int, Never>>()
    let subscription = Observable(numbers).subscribe { received.append($0) }
    continuation.yield(1)
    #expect(await received.wait { $0 == [.next(1)] })
    subscription.dispose()
    // Terminated: the stream drops what it is given from now on.
    #expect(await terminations.wait { $0 == ["cancelled"] })
    continuation.yield(2)
    continuation.finish()
    #expect(received.values == [.next(1)])
  }

  @Test func disposingBeforeTheTaskStartsDeliversNothing() async {
    let received = Recorder<StreamEvent<Int, Never>>()
    let finished = Counter()
    for _ in 0..<100 {
      let stream = Observable<Int, Never>.task {
        defer { finished.increment() }
        return 1
      }
      stream.subscribe { received.append($0) }.dispose()
    }
    #expect(await finished.wait { $0 == 100 })
    // A task may have delivered before the dispose reached it (its value, perhaps its
    // completion); a completion never comes without its value, and nothing fails.
    let values = received.values
    let nexts = values.filter { $0 == .next(1) }.count
    let completions = values.filter { $0 == .completed }.count
    #expect(completions <= nexts)
    #expect(nexts + completions == values.count)
  }

  // MARK: Serialization

  // AT-03: sends from several tasks of one `run` body never overlap downstream, all arrive, and
  // each task's values keep their order.
  @Test func runSerializesSendsFromConcurrentChildTasks() async {
    let producers = 4
    let perProducer = 2_000
    let inside = Occupancy()
    let overlaps = Counter()
    let received = Recorder<Int>()
    let stream = Observable<Int, Never>.run { observer in
      await withTaskGroup(of: Void.self) { group in
        for producer in 0..<producers {
          group.addTask {
            for index in 0..<perProducer { observer.onNext(producer * perProducer + index) }
          }
        }
      }
    }
    let completed = Counter()
    let subscription = stream.subscribe(
      onNext: { value in
        if inside.enter() > 1 { overlaps.increment() }
        received.append(value)
        inside.leave()
      },
      onCompleted: { completed.increment() }
    )
    #expect(await completed.wait { $0 == 1 })
    subscription.dispose()
    let values = received.values
    #expect(overlaps.value == 0)
    #expect(values.count == producers * perProducer)
    for producer in 0..<producers {
      let own = values.filter { $0 / perProducer == producer }
      #expect(own == Array(producer * perProducer..<(producer + 1) * perProducer))
    }
  }
}

/// Counts the callbacks currently running.
private final class Occupancy: Sendable {
  private let count = Atomic<Int>(0)

  /// Enters; returns how many callbacks are inside, this one included.
  func enter() -> Int { count.add(1, ordering: .acquiringAndReleasing).newValue }

  func leave() { count.subtract(1, ordering: .acquiringAndReleasing) }
}
