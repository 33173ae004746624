import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Synchronization
import Testing

/// Actions from many threads, under ThreadSanitizer in CI.
///
/// Nothing is lost or duplicated, `reduce` never overlaps, each producer's order is kept,
/// subscribers see the reduce order, and reading the state is race-free.
@Suite(.checksResources)
struct ReactorConcurrencyTests {
  /// A counter whose `reduce` detects overlapping reductions.
  final class CounterReactor: Reactor {
    typealias Action = Int

    let initialState = 0
    let runtime = ReactorRuntime<Int, Int, Int>()
    let overlaps = Counter()
    private let inside = Atomic<Int>(0)
    let deliveryScheduler: any Scheduler

    init(scheduler: any Scheduler = ImmediateScheduler.instance) {
      deliveryScheduler = scheduler
    }

    var scheduler: any Scheduler { deliveryScheduler }

    func reduce(into state: inout Int, mutation: Int) {
      if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
      state += mutation
      inside.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  /// ReactorKit's generic, subclassed reactor (`@unchecked Sendable`: a non-final class cannot be
  /// checked), written as ReactorKit's users write it: no `runtime`, and `mutate` returning a
  /// `concat` of `defer` blocks that read `currentState` (reduced at once, in the store's reduce
  /// window).
  // Safety: stores only immutable `let`s of `Sendable` types; the state is the runtime's.
  class GenericParentReactor<T>: Reactor, @unchecked Sendable {
    typealias Action = Int
    typealias State = Int
    let initialState = 0

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Int) -> Observable<Int, Never> {
      // Two halves: the second reads the state the first produced.
      .concat(
        .just(action),
        .deferred { [weak self] in .just(self.map { $0.currentState % 2 } ?? 0) }
      )
    }

    func reduce(state: Int, mutation: Int) -> Int { state + mutation }
  }

  // Safety: adds no stored property to its `@unchecked Sendable` parent.
  final class GenericChildReactor: GenericParentReactor<String>, @unchecked Sendable {}

  // The subclassed ReactorKit form from 8 threads at once, with observers of its actions
  // subscribing and leaving meanwhile: every action is reduced, and every observer sees only
  // actions (ThreadSanitizer checks the runtime, the reduce window and the action observers).
  @Test func aSubclassedReactorKitFormUnderContention() async {
    let reactor = GenericChildReactor()
    let observed = Counter()
    let notActions = Counter()
    let perThread = 200
    let done = await runOnThreads(8) { thread in
      for index in 0..<perThread {
        if index % 50 == 0 {
          let subscription = reactor.action.subscribe(onNext: { action in
            if action != 1 { notActions.increment() }
          })
          reactor.send(1)
          subscription.dispose()
        } else {
          reactor.send(1)
        }
      }
    }
    #expect(done)
    // Each action adds 1, then 0 or 1 (the parity the deferred half reads): at least one each.
    #expect(reactor.currentState >= 8 * perThread)
    #expect(reactor.action.observerCount == 0)
    #expect(notActions.value == 0)
    // Under contention, an action emitted while another thread emits is queued to that thread
    // (the subject serializes its observers' calls), and may reach the observers after this one
    // left. Alone, an observer sees the action sent while it is subscribed.
    let subscription = reactor.action.subscribe(onNext: { _ in observed.increment() })
    reactor.send(1)
    subscription.dispose()
    #expect(observed.value == 1)
  }

  // AT-10: 16 threads × 1,000 increments, 3 subscribers: the final state is 16,000, `reduce`
  // never overlapped, each subscriber's sequence is strictly increasing and ends at 16,000.
  @Test func noLostOrDuplicatedActions() async {
    let reactor = CounterReactor()
    let violations = Counter()
    let lasts = LockedBox([Int](repeating: -1, count: 3))
    let subscriptions = (0..<3).map { index in
      reactor.state.subscribe(onNext: { count in
        var all = lasts.value
        if count <= all[index] { violations.increment() }
        all[index] = count
        lasts.value = all
      })
    }
    let finished = await runOnThreads(16) { _ in
      for _ in 0..<1_000 { reactor.action.onNext(1) }
    }
    #expect(finished)
    #expect(reactor.currentState == 16_000)
    #expect(reactor.overlaps.value == 0)
    #expect(violations.value == 0)
    #expect(lasts.value == [16_000, 16_000, 16_000])
    for subscription in subscriptions { subscription.dispose() }
  }

  struct Tagged: Sendable {
    var thread: Int
    var index: Int
  }

  struct OrderLog: Sendable {
    var next = [Int](repeating: 0, count: 8)
    var outOfOrder = 0
    var total = 0
  }

  final class OrderReactor: Reactor {
    typealias Action = Tagged

    let initialState = OrderLog()
    let runtime = ReactorRuntime<Tagged, Tagged, OrderLog>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into log: inout OrderLog, mutation: Tagged) {
      if log.next[mutation.thread] != mutation.index { log.outOfOrder += 1 }
      log.next[mutation.thread] = mutation.index + 1
      log.total += 1
    }
  }

  // AT-11 and the 8 × 10,000: each producer's actions are reduced in the order it sent
  // them, and nothing is lost.
  @Test func perProducerOrderIsKept() async {
    let reactor = OrderReactor()
    let finished = await runOnThreads(8) { thread in
      for index in 0..<10_000 { reactor.send(Tagged(thread: thread, index: index)) }
    }
    #expect(finished)
    let log = reactor.currentState
    #expect(log.outOfOrder == 0)
    #expect(log.total == 80_000)
    #expect(log.next == [Int](repeating: 10_000, count: 8))
  }

  // AT-12: with the state delivered on a serial queue, and subscribers that observe on queues
  // of their own, each subscriber's states go up (a subsequence of the reduce order) and end
  // with the final state.
  @Test func subscribersObserveReduceOrder() async {
    let reactor = CounterReactor(scheduler: SerialDispatchQueueScheduler(label: "reactor-state"))
    let queues = (0..<2).map { SerialDispatchQueueScheduler(label: "subscriber-\($0)") }
    let seen = (0..<3).map { _ in Recorder<Int>() }
    var subscriptions = queues.enumerated().map { index, queue in
      reactor.state.observe(on: queue).subscribe(onNext: { seen[index].append($0) })
    }
    subscriptions.append(reactor.state.subscribe(onNext: { seen[2].append($0) }))
    let finished = await runOnThreads(4) { _ in
      for _ in 0..<2_000 { reactor.send(1) }
    }
    #expect(finished)
    // Each subscriber's queue delivers the final state last (a subscriber sees increasing states).
    for recorder in seen {
      #expect(await recorder.wait { $0.last == 8_000 })
    }
    for recorder in seen {
      let values = recorder.values
      #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    }
    for subscription in subscriptions { subscription.dispose() }
  }

  // AT-14: a background thread sending while the main actor sends: serialized, each producer's
  // order kept, the state right, no crash.
  final class LogReactor: Reactor {
    typealias Action = Int

    let initialState: [Int] = []
    let runtime = ReactorRuntime<Int, Int, [Int]>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into log: inout [Int], mutation: Int) { log.append(mutation) }
  }

  @Test func offThreadActionsAreSerialized() async {
    let reactor = LogReactor()
    let backgroundSent = Signal()
    await MainActor.run {
      DispatchQueue.global().async {
        for value in 1_000..<2_000 { reactor.send(value) }
        backgroundSent.fire()
      }
      for value in 0..<1_000 { reactor.send(value) }
    }
    // Every send has returned: each action is applied, or queued for the thread processing.
    #expect(await backgroundSent.wait())
    await reactor.settle()
    #expect(reactor.currentState.count == 2_000)
    let log = reactor.currentState
    #expect(log.filter { $0 < 1_000 } == Array(0..<1_000))
    #expect(log.filter { $0 >= 1_000 } == Array(1_000..<2_000))
  }

  struct Pair: Sendable, Equatable {
    var a = 0
    var b = 0
  }

  final class PairReactor: Reactor {
    typealias Action = Int

    let initialState = Pair()
    let runtime = ReactorRuntime<Int, Int, Pair>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into pair: inout Pair, mutation: Int) {
      pair.a += mutation
      pair.b += mutation
    }
  }

  // AT-15: four threads read `currentState` (and subscribe to `state`) in a loop while another
  // sends 10,000 actions: every value read is one the reactor published (a consistent pair),
  // and TSan reports nothing.
  @Test func readingStateWhileSendingIsRaceFree() async {
    let reactor = PairReactor()
    let torn = Counter()
    let done = Atomic<Bool>(false)
    let finished = await runOnThreads(5) { index in
      if index == 0 {
        for _ in 0..<10_000 { reactor.send(1) }
        done.store(true, ordering: .releasing)
      } else {
        while !done.load(ordering: .acquiring) {
          let pair = reactor.currentState
          if pair.a != pair.b { torn.increment() }
          if index == 1 {
            let subscription = reactor.state.subscribe(onNext: { pair in
              if pair.a != pair.b { torn.increment() }
            })
            subscription.dispose()
          }
        }
      }
    }
    #expect(finished)
    #expect(torn.value == 0)
    #expect(reactor.currentState == Pair(a: 10_000, b: 10_000))
  }

  /// Reworks its actions and mutations, so they go through the transformed streams.
  final class TransformedReactor: Reactor {
    typealias Action = Tagged

    let initialState = OrderLog()
    let runtime = ReactorRuntime<Tagged, Tagged, OrderLog>()
    let extra = PublishSubject<Tagged, Never>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into log: inout OrderLog, mutation: Tagged) {
      if log.next[mutation.thread] != mutation.index { log.outOfOrder += 1 }
      log.next[mutation.thread] = mutation.index + 1
      log.total += 1
    }

    func transform(action: Observable<Tagged, Never>) -> Observable<Tagged, Never> {
      action.filter { _ in true }.asObservable()
    }

    func transform(mutation: Observable<Tagged, Never>) -> Observable<Tagged, Never> {
      Observable.merge(mutation, extra.asObservable())
    }
  }

  // AT-10 and AT-11 through `transform(action:)` and `transform(mutation:)`: the transformed
  // streams serialize many senders, and keep each one's order.
  @Test func transformedStreamsLoseNothing() async {
    let reactor = TransformedReactor()
    _ = reactor.currentState  // starts the reactor: `extra` is hot, and heard only once started
    let finished = await runOnThreads(8) { thread in
      for index in 0..<2_000 {
        if thread == 7 {
          reactor.extra.onNext(Tagged(thread: thread, index: index))
        } else {
          reactor.send(Tagged(thread: thread, index: index))
        }
      }
    }
    #expect(finished)
    let log = reactor.currentState
    #expect(log.outOfOrder == 0)
    #expect(log.total == 16_000)
  }

  final class AsyncReactor: Reactor {
    enum Action: Sendable {
      case run
      case stream
    }

    let initialState = 0
    let runtime = ReactorRuntime<Action, Int, Int>()
    let background = ConcurrentDispatchQueueScheduler()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Int> {
      switch action {
      case .run: .run { send in send(1) }
      case .stream: .stream(Observable.just(1).observe(on: background))
      }
    }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  // Asynchronous mutations arriving from tasks and from other queues, while threads send
  // actions: all of them are applied.
  @Test func asynchronousMutationsFromManyThreads() async {
    let reactor = AsyncReactor()
    let finished = await runOnThreads(4) { thread in
      for _ in 0..<250 { reactor.send(thread.isMultiple(of: 2) ? .run : .stream) }
    }
    #expect(finished)
    // Every action was sent (applied, or queued for the thread processing): `finish()` waits for
    // the operations and streams they start to end, and for what those send to be applied.
    await reactor.finish()
    #expect(reactor.currentState == 1_000)
    #expect(reactor.effectsInFlight == 0)
  }
}
