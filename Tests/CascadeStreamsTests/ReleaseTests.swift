import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Every buffering type releases a value when it leaves (or when the stream is disposed).
///
/// Proven with values that count themselves (`Tracked`). Issue 19.
@Suite(.checksResources)
struct ReleaseTests {
  // The FIFO behind every queue clears a slot as its element leaves: a queue that never empties
  // keeps alive only what it holds. (Before: removed slots were cleared only when the queue
  // emptied or its head passed 64, so up to ~64 delivered values stayed alive.)
  @Test func aQueueThatNeverEmptiesKeepsOnlyWhatItHolds() {
    let live = LiveCount()
    var queue = FIFO<Tracked>()
    for number in 0..<10 { queue.append(Tracked(number, in: live)) }
    for number in 10..<1_000 {
      queue.append(Tracked(number, in: live))
      #expect(queue.removeFirst().number == number - 10)
      #expect(live.value == 10)
    }
    #expect(queue.elements.map(\.number) == Array(990..<1_000))
    queue.removeAll()
    #expect(live.value == 0)
  }

  // Growing keeps the order and the elements, with the head wrapped around the ring, for an
  // element larger than an existential's inline buffer (a store's work items are): the new slots
  // are made empty one by one, and nothing is released or kept twice.
  @Test func aQueueOfLargeElementsGrowsInOrderWhileWrapped() {
    struct Large {
      var tracked: Tracked
      var label: String
      var padding: (Int, Int, Int, Int) = (1, 2, 3, 4)
    }
    let live = LiveCount()
    var queue = FIFO<Large>()
    var next = 0
    var expected = 0
    // Three in, two out, so that the head moves on and each growth happens with it wrapped.
    for _ in 0..<300 {
      for _ in 0..<3 {
        queue.append(Large(tracked: Tracked(next, in: live), label: "element \(next)"))
        next += 1
      }
      for _ in 0..<2 {
        let element = queue.removeFirst()
        #expect(element.tracked.number == expected && element.label == "element \(expected)")
        expected += 1
      }
    }
    #expect(queue.count == 300 && live.value == 300)
    #expect(queue.elements.map(\.tracked.number) == Array(600..<900))
    queue.removeAll()
    #expect(live.value == 0)
  }

  // After a burst, the queue gives its storage back when it empties.
  @Test func aQueueGivesBackItsStorageAfterABurst() {
    var queue = FIFO<Int>()
    for number in 0..<100_000 { queue.append(number) }
    while !queue.isEmpty { _ = queue.removeFirst() }
    #expect(queue.capacity <= 256)
    queue.append(1)
    #expect(queue.removeFirst() == 1)
  }

  // A replaying subject keeps at most its buffer size alive, at any moment. (Before: a
  // ReplaySubject of 5 kept up to ~70 values alive, its buffer never emptying.)
  @Test(arguments: [1, 5, 64])
  func aReplaySubjectKeepsAtMostItsBufferSize(bufferSize: Int) {
    let live = LiveCount()
    let subject = ReplaySubject<Tracked, Never>(bufferSize: bufferSize)
    let most = Watched(0)
    let subscription = subject.subscribe(onNext: { _ in
      most.update { $0 = max($0, live.value) }
    })
    for number in 0..<500 {
      subject.onNext(Tracked(number, in: live))
      #expect(live.value <= bufferSize)
    }
    #expect(most.value <= bufferSize + 1)  // the value being delivered, and those kept
    let replayed = Recorder<Int>()
    let late = subject.subscribe(onNext: { replayed.append($0.number) })
    #expect(replayed.values == Array((500 - bufferSize)..<500))
    subscription.dispose()
    late.dispose()
  }

  // A publish subject keeps nothing of what it delivered, and a behavior subject only its
  // current value. (Before: a PublishSubject kept the last value it delivered.)
  @Test func publishKeepsNothingAndBehaviorOnlyItsValue() {
    let live = LiveCount()
    let publish = PublishSubject<Tracked, Never>()
    let subscription = publish.subscribe(onNext: { _ in })
    publish.onNext(Tracked(1, in: live))
    #expect(live.value == 0)
    let behavior = BehaviorSubject<Tracked, Never>(Tracked(0, in: live))
    behavior.onNext(Tracked(1, in: live))
    behavior.onNext(Tracked(2, in: live))
    #expect(live.value == 1)
    #expect(behavior.value.number == 2)
    subscription.dispose()
  }

  // `observe(on:)` and `delay` hold a value until it is delivered, then let it go; disposing
  // releases what was still waiting.
  @Test func observeOnAndDelayReleaseWhatTheyDelivered() {
    let live = LiveCount()
    let scheduler = TestScheduler()
    let subject = PublishSubject<Tracked, Never>()
    let observed = subject.observe(on: scheduler).subscribe(onNext: { _ in })
    let delayed = subject.delay(.seconds(1), scheduler: scheduler).subscribe(onNext: { _ in })
    for number in 0..<10 { subject.onNext(Tracked(number, in: live)) }
    #expect(live.value == 10)  // waiting in both
    scheduler.advance(by: .zero)
    #expect(live.value == 10)  // delivered by observe(on:), still waiting in delay
    scheduler.advance(by: .seconds(1))
    #expect(live.value == 0)
    for number in 10..<20 { subject.onNext(Tracked(number, in: live)) }
    observed.dispose()
    delayed.dispose()
    #expect(live.value == 0)
  }

  // `concatMap` queues values waiting for their turn and releases each once its inner stream
  // has started; `combineLatest` keeps only the latest of each source.
  @Test func concatMapAndCombineLatestKeepOnlyWhatTheyNeed() {
    let live = LiveCount()
    let outer = PublishSubject<Tracked, Never>()
    let inners = (0..<3).map { _ in PublishSubject<Int, Never>() }
    let concatenated = outer.concatMap { inners[$0.number % 3] }.subscribe(onNext: { _ in })
    for number in 0..<3 { outer.onNext(Tracked(number, in: live)) }
    #expect(live.value == 2)  // the first is mapped at once; two wait
    inners[0].onCompleted()
    #expect(live.value == 1)
    concatenated.dispose()
    #expect(live.value == 0)

    let left = PublishSubject<Tracked, Never>()
    let right = PublishSubject<Tracked, Never>()
    let combined = left.combineLatest(right).subscribe(onNext: { _ in })
    for number in 0..<50 {
      left.onNext(Tracked(number, in: live))
      right.onNext(Tracked(number, in: live))
      #expect(live.value == 2)
    }
    combined.dispose()
    #expect(live.value == 0)
  }

  // The async bridge hands each value on and keeps none once it is consumed.
  @Test func theAsyncBridgeKeepsNothingItHandedOn() async {
    let live = LiveCount()
    let subject = ReplaySubject<Tracked, Never>(bufferSize: 0)
    let consumed = Recorder<Int>()
    let subscribed = Signal()
    let task = Task {
      for await value in subject.do(onSubscribed: { subscribed.fire() }).values {
        consumed.append(value.number)
        if value.number == 99 { break }
      }
    }
    #expect(await subscribed.wait())
    for number in 0..<100 { subject.onNext(Tracked(number, in: live)) }
    await task.value
    #expect(consumed.values == Array(0..<100))
    #expect(live.value == 0)
  }
}
