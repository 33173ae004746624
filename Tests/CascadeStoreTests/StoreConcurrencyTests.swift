import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Synchronization
import Testing

@Suite(.checksResources)
struct StoreConcurrencyTests {
  /// A counter whose reducer detects overlapping reductions.
  static func detectingCounter(overlaps: Counter) -> Store<Int, Int> {
    let inside = Atomic<Int>(0)
    return Store(initialState: 0) { count, amount in
      if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
      count += amount
      inside.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  // A subscription that skips repeats keeps its last selection behind a pointer, with no lock
  // and no exclusivity check (`LastSelection`: 34% of W2's selector form); that is safe only
  // because one thread at a time processes the store's inputs. 8 threads send at once (under
  // ThreadSanitizer in CI, which would report two threads touching it): each selection is
  // delivered once, in order.
  @Test func selectionsThatSkipRepeatsSeeEachChangeOnceInOrder() async {
    let store = Store<Int, Int>(initialState: 0) { count, amount in count += amount }
    let tens = Recorder<Int>()
    let evens = Recorder<Bool>()
    let byTen = store.subscribe(select: { $0 / 10 }, on: .synchronous) { tens.append($0) }
    let byParity = store.subscribe(select: { $0 % 2 == 0 }, on: .synchronous) {
      evens.append($0)
    }
    let finished = await runOnThreads(8) { _ in
      for _ in 0..<1_000 { store.send(1) }
    }
    #expect(finished)
    #expect(tens.values == Array(0...800))
    #expect(evens.values.count == 8_001)
    #expect(evens.values.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0) })
    byTen.dispose()
    byParity.dispose()
  }

  // AT-10: 16 threads × 1,000 increments, 3 subscribers: nothing lost or duplicated, the reducer
  // never overlaps, each subscriber sees a strictly increasing sequence ending at 16,000.
  @Test func noLostOrDuplicatedActions() async {
    let overlaps = Counter()
    let store = Self.detectingCounter(overlaps: overlaps)
    let violations = Counter()
    let lasts = LockedValue([Int](repeating: -1, count: 3))
    let subscriptions = (0..<3).map { index in
      store.subscribe(on: .synchronous) { count in
        let increasing = lasts.withLock { last -> Bool in
          defer { last[index] = count }
          return count > last[index]
        }
        if !increasing { violations.increment() }
      }
    }
    let finished = await runOnThreads(16) { _ in
      for _ in 0..<1_000 { store.send(1) }
    }
    #expect(finished)
    #expect(store.state == 16_000)
    #expect(overlaps.value == 0)
    #expect(violations.value == 0)
    #expect(lasts.withLock { $0 } == [16_000, 16_000, 16_000])
    for subscription in subscriptions { subscription.dispose() }
  }

  // AT-11 and the 8 × 10,000: each producer's actions are reduced in the order it sent
  // them, and nothing is lost.
  @Test func perProducerOrderIsKept() async {
    let threads = 8
    let perThread = 10_000
    struct Log: Sendable {
      var next = [Int](repeating: 0, count: 8)
      var outOfOrder = 0
      var total = 0
    }
    let store = Store<Log, (thread: Int, index: Int)>(initialState: Log()) { log, action in
      if log.next[action.thread] != action.index { log.outOfOrder += 1 }
      log.next[action.thread] = action.index + 1
      log.total += 1
    }
    let finished = await runOnThreads(threads) { thread in
      for index in 0..<perThread { store.send((thread, index)) }
    }
    #expect(finished)
    #expect(store.state.outOfOrder == 0)
    #expect(store.state.total == threads * perThread)
    #expect(store.state.next == [Int](repeating: perThread, count: threads))
  }

  // AT-12: subscribers delivered on other queues observe a subsequence of the reduce log, in
  // order, ending with the final state.
  @Test func subscribersObserveReduceOrder() async {
    let store = Store<Int, Int>(initialState: 0) { count, _ in count += 1 }
    let queues = (0..<3).map { SerialDispatchQueueScheduler(label: "subscriber-\($0)") }
    let seen = (0..<4).map { _ in Recorder<Int>() }
    var subscriptions = queues.enumerated().map { index, queue in
      store.subscribe(on: .scheduler(queue)) { seen[index].append($0) }
    }
    subscriptions.append(store.subscribe(on: .synchronous) { seen[3].append($0) })
    let finished = await runOnThreads(4) { _ in
      for _ in 0..<2_000 { store.send(1) }
    }
    #expect(finished)
    // Every send has returned, so every input is reduced; the deliveries on the subscriber
    // queues may still be on their way: wait for each to reach the final state.
    for recorder in seen {
      #expect(await recorder.wait { $0.last == 8_000 })
    }
    for recorder in seen {
      let values = recorder.values
      #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    }
    for subscription in subscriptions { subscription.dispose() }
  }

  // AT-13: a subscribe racing a dispatch never misses the update: the subscriber's last value is
  // the state after the action.
  @Test func subscribeRacingDispatchNeverMissesTheUpdate() async {
    var misses = 0
    for _ in 0..<1_000 {
      let store = Store<Int, Int>(initialState: 0) { count, amount in count += amount }
      let last = LockedValue(-1)
      let subscription = LockedValue<(any Disposable)?>(nil)
      let finished = await runOnThreads(2) { index in
        if index == 0 {
          store.send(1)
        } else {
          let disposable = store.subscribe(on: .synchronous) { value in last.withLock { $0 = value }
          }
          subscription.withLock { $0 = disposable }
        }
      }
      #expect(finished)
      if last.withLock({ $0 }) != store.state { misses += 1 }
      subscription.withLock { $0?.dispose() }
    }
    #expect(misses == 0)
  }

  // AT-14: a background thread dispatching while the "main" producer dispatches: serialized,
  // per-producer order kept, the state correct, no crash.
  @Test func offThreadDispatchIsSerialized() async {
    let store = Store<[Int], Int>(initialState: []) { log, value in log.append(value) }
    let backgroundDone = Signal()
    await MainActor.run {
      DispatchQueue.global().async {
        for value in 1_000..<2_000 { store.send(value) }
        backgroundDone.fire()
      }
      for value in 0..<1_000 { store.send(value) }
    }
    // Both producers' sends have returned (each reduced or queued); settle drains the queue.
    #expect(await backgroundDone.wait())
    await store.settle()
    #expect(store.state.count == 2_000)
    let log = store.state
    #expect(log.filter { $0 < 1_000 } == Array(0..<1_000))
    #expect(log.filter { $0 >= 1_000 } == Array(1_000..<2_000))
  }

  // AT-15: four threads reading `state` while another dispatches 10,000 actions: every value
  // read is one the store published (here: consistent pairs), and TSan reports nothing.
  @Test func readingStateWhileDispatchingIsRaceFree() async {
    struct Pair: Sendable {
      var a = 0
      var b = 0
    }
    let store = Store<Pair, Void>(initialState: Pair()) { pair, _ in
      pair.a += 1
      pair.b += 1
    }
    let torn = Counter()
    let done = Atomic<Bool>(false)
    let finished = await runOnThreads(5) { index in
      if index == 0 {
        for _ in 0..<10_000 { store.send(()) }
        done.store(true, ordering: .releasing)
      } else {
        while !done.load(ordering: .acquiring) {
          let pair = store.state
          if pair.a != pair.b { torn.increment() }
        }
      }
    }
    #expect(finished)
    #expect(torn.value == 0)
    #expect(store.state.a == 10_000)
  }

  // AT-29: 10,000 commands over 100 ids, cancels from many threads: all end, the registries
  // are empty, nothing leaks (the suite's resource check).
  @Test func cancellationStormLeavesNothingBehind() async {
    let store = Store<Int, Int>(initialState: 0) { count, amount in count += amount }
    for index in 0..<10_000 {
      store.run(id: index % 100) { _, store in
        try await suspendUntilCancelled()
        store.send(1)
      }
    }
    let finished = await runOnThreads(4) { thread in
      for id in stride(from: thread, to: 100, by: 4) { store.cancel(id: id) }
    }
    #expect(finished)
    // Every command was cancelled: each ends, and finish waits for all of them.
    await store.finish()
    #expect(store.effectsInFlight == 0)
    #expect(store.state == 0)
    #expect(store.parkedCommandCount == 0)
  }

  // The queue isolation: sends return at once, processing is serial on the store's queue.
  @Test func queueIsolationProcessesInOrderOffTheCaller() async {
    let overlaps = Counter()
    let inside = Atomic<Int>(0)
    let store = Store<[Int], Int>(
      initialState: [],
      isolation: .serialQueue(label: "store")
    ) { log, value in
      if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
      log.append(value)
      inside.subtract(1, ordering: .acquiringAndReleasing)
    }
    let finished = await runOnThreads(4) { thread in
      for index in 0..<500 { store.send(thread * 1_000 + index) }
    }
    #expect(finished)
    await store.settle()
    let log = store.state
    #expect(log.count == 2_000)
    #expect(overlaps.value == 0)
    for thread in 0..<4 {
      #expect(log.filter { $0 / 1_000 == thread } == Array(thread * 1_000..<thread * 1_000 + 500))
    }
  }
}

/// The subscription index under concurrent senders and subscribers.
@Suite(.checksResources)
struct ElementSubscriptionConcurrencyTests {
  // Four threads send increments while four others subscribe to and dispose element
  // subscriptions: every subscriber sees its element only grow, the final values are exact, and
  // nothing is left subscribed.
  @Test func subscribersComeAndGoWhileInputsArrive() async {
    let store = Store<[Int], Int>(initialState: [Int](repeating: 0, count: 8)) { cells, index in
      cells[index] += 1
    }
    let violations = Counter()
    let finished = await runOnThreads(8) { thread in
      if thread < 4 {
        for k in 0..<2_000 { store.send((k + thread) % 8) }
      } else {
        for round in 0..<200 {
          let index = (round + thread) % 8
          let last = LockedBox(-1)
          let subscription = store.subscribe(\.self, at: index, on: .synchronous) { value in
            if value < last.value { violations.increment() }
            last.value = value
          }
          subscription.dispose()
        }
      }
    }
    #expect(finished)
    #expect(store.state.reduce(0, +) == 8_000)
    #expect(violations.value == 0)
    #expect(store.subscriptionCount == 0)
  }
}

/// The main-actor store under background senders.
@Suite(.checksResources)
@MainActor
struct MainStoreConcurrencyTests {
  // Four background threads send into a main-queue store: every input is reduced on the main
  // actor, and its main-actor subscriber and `Observation` selection see every state in order.
  @Test func backgroundSendersReachMainActorSubscribersInOrder() async {
    let store = MainStore(initialState: 0) { (count: inout Int, amount: Int) in
      MainActor.assertIsolated()
      count += amount
    }
    let seen = Recorder<Int>()
    let subscription = store.subscribe(select: { $0 }) { seen.append($0) }
    let observed = store.store.observe { $0 }
    let inner = store.store
    let finished = await runOnThreads(4) { _ in
      for _ in 0..<500 { inner.send(1) }
    }
    #expect(finished)
    // The inputs are reduced on the main queue once this test gives up the main actor.
    await store.finish()
    #expect(store.state == 2_000)
    // The observation's deliveries that the main scheduler did not run at once were enqueued on
    // the main queue while the inputs were reduced; a block enqueued now runs after them (the
    // main queue is serial, first in first out).
    await mainQueueDrained()
    #expect(observed.value == 2_000)
    #expect(seen.values == Array(0...2_000))
    subscription.dispose()
  }

  // AT-31 and AT-32 across threads: releasing a store while another thread delivers its state
  // returns only once that delivery has returned, so no subscriber of the store runs after the
  // release. A thread sends `1` through a command's handle (which does not keep the store alive);
  // the subscriber holds that delivery until the releasing thread is inside the teardown (it
  // runs the command's cancel handler), then gives a release that would not wait 100 ms to
  // return: however long it waits, the release has not returned when the delivery ends.
  @Test func releaseWaitsForADeliveryInProgressOnAnotherThread() async {
    let handle = LockedBox<Store<Int, Int>?>(nil)
    let started = Signal()
    let tearingDown = Signal()
    let entered = Signal()
    let released = Watched(false)
    let releasedDuringDelivery = Recorder<Bool>()
    var store: Store<Int, Int>? = Store(initialState: 0) { count, amount in count += amount }
    store?.run("held") { _, store in
      handle.value = store
      await withTaskCancellationHandler {
        started.fire()
        try? await suspendUntilCancelled()
      } onCancel: {
        tearingDown.fire()
      }
    }
    let subscription = store?.subscribe(on: .synchronous) { count in
      guard count == 1 else { return }
      entered.fire()
      _ = tearingDown.waitBlocking()
      // Only a release that does not wait can end this wait early; a correct one never does.
      _ = released.waitBlocking(timeout: .milliseconds(100)) { $0 }
      releasedDuringDelivery.append(released.value)
    }
    #expect(await started.wait())
    let sender = Task { await onOwnThread { handle.value?.send(1) } }
    #expect(await entered.wait())
    store = nil
    released.set(true)
    await sender.value
    #expect(releasedDuringDelivery.values == [false])
    handle.value = nil
    subscription?.dispose()
  }
}
