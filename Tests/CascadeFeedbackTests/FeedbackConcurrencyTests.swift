import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Synchronization
import Testing

/// Feedback loops under real threads; CI runs this suite under ThreadSanitizer.
@Suite(.checksResources)
struct FeedbackConcurrencyTests {
  /// Runs `body` on a new dispatch worker; `wait` returns whether it finished in time, without
  /// blocking a thread of the cooperative pool.
  final class Background: Sendable {
    private let done = Signal()

    init(_ body: @escaping @Sendable () -> Void) {
      let account = ResourceAccount.current
      DispatchQueue.global().async { [done] in
        if let account {
          account.withCurrent(body)
        } else {
          body()
        }
        done.fire()
      }
    }

    func wait(timeout: Duration = .seconds(60)) async -> Bool {
      await done.wait(timeout: timeout)
    }
  }

  /// A gate a delivery blocks on, once, so that the loop stays busy on another thread.
  final class Gate: Sendable {
    private let entered = Signal()
    private let released = Signal()
    private let used = Atomic<Bool>(false)

    /// Called by the thread to block (a dispatch worker, never the cooperative pool); blocks
    /// only the first time.
    func block() {
      guard !used.exchange(true, ordering: .acquiringAndReleasing) else { return }
      entered.fire()
      _ = released.waitBlocking(timeout: .seconds(60))
    }

    /// Waits until a thread is blocked in ``block()``.
    func waitUntilBlocked() async -> Bool {
      await entered.wait(timeout: .seconds(60))
    }

    func release() {
      released.fire()
    }
  }

  // AT-10: 16 threads × 1,000 external events, 3 subscribers: the final state is 16,000, the
  // reducer never overlapped, and each subscriber (and a feedback) sees a strictly increasing
  // sequence ending at 16,000.
  @Test func noLostOrDuplicatedEvents() async {
    let overlaps = Counter()
    let inside = Atomic<Int>(0)
    let violations = Counter()
    let lasts = LockedValue([Int](repeating: -1, count: 4))
    let check: @Sendable (Int, Int) -> Void = { index, count in
      let increasing = lasts.withLock { lasts -> Bool in
        defer { lasts[index] = count }
        return count > lasts[index]
      }
      if !increasing { violations.increment() }
    }
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduceInPlace: { count, amount in
        if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
        count += amount
        inside.subtract(1, ordering: .acquiringAndReleasing)
      },
      feedbacks: [
        Feedback(start: { context in context.states.subscribe(onNext: { check(3, $0) }) })
      ],
      scheduler: ImmediateScheduler.instance
    )
    let subscriptions = (0..<3).map { index in
      loop.states.subscribe(onNext: { check(index, $0) })
    }
    let finished = await runOnThreads(16) { _ in
      for _ in 0..<1_000 { loop.send(1) }
    }
    #expect(finished)
    #expect(loop.currentState == 16_000)
    #expect(overlaps.value == 0)
    #expect(violations.value == 0)
    #expect(lasts.withLock { $0 } == [16_000, 16_000, 16_000, 16_000])
    for subscription in subscriptions { subscription.dispose() }
    await loop.shutdown()
  }

  // AT-12: subscribers delivered on the loop's queue and on queues of their own, and a feedback,
  // observe a subsequence of the reduce log, in order, ending with the final state.
  @Test func subscribersObserveReduceOrder() async {
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduceInPlace: { count, _ in count += 1 },
      feedbacks: [],
      scheduler: SerialDispatchQueueScheduler(label: "loop")
    )
    let seen = (0..<4).map { _ in Recorder<Int>() }
    let subscriptions = [
      loop.states.subscribe(onNext: { seen[0].append($0) }),
      loop.states.subscribe(onNext: { seen[1].append($0) }),
      loop.states.observe(on: SerialDispatchQueueScheduler(label: "other"))
        .subscribe(onNext: { seen[2].append($0) }),
      loop.states.observe(on: ConcurrentDispatchQueueScheduler())
        .subscribe(onNext: { seen[3].append($0) }),
    ]
    let finished = await runOnThreads(4) { _ in
      for _ in 0..<2_000 { loop.send(1) }
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
    await loop.shutdown()
  }

  // The 8 threads × 10,000 external events: nothing lost, each thread's events reduced in
  // the order it sent them.
  @Test func perThreadOrderIsKept() async {
    let threads = 8
    let perThread = 10_000
    struct Log: Sendable {
      var next = [Int](repeating: 0, count: 8)
      var outOfOrder = 0
      var total = 0
    }
    struct Tagged: Sendable {
      let thread: Int
      let index: Int
    }
    let loop = FeedbackLoop<Log, Tagged>(
      initialState: Log(),
      reduceInPlace: { log, event in
        if log.next[event.thread] != event.index { log.outOfOrder += 1 }
        log.next[event.thread] = event.index + 1
        log.total += 1
      },
      feedbacks: [],
      scheduler: ImmediateScheduler.instance
    )
    let finished = await runOnThreads(threads) { thread in
      for index in 0..<perThread { loop.send(Tagged(thread: thread, index: index)) }
    }
    #expect(finished)
    #expect(loop.currentState.outOfOrder == 0)
    #expect(loop.currentState.total == threads * perThread)
    #expect(loop.currentState.next == [Int](repeating: perThread, count: threads))
    await loop.shutdown()
  }

  struct Search: Sendable, Equatable {
    var query: String?
    var results: [String] = []
    var holds = 0
  }

  enum SearchEvent: Sendable, Equatable {
    case type(String?)
    case found(String)
    case hold
  }

  static func reduce(_ state: inout Search, _ event: SearchEvent) {
    switch event {
    case .type(let query): state.query = query
    case .found(let result): state.results.append(result)
    case .hold: state.holds += 1
    }
  }

  // AT-26: while the loop is busy on another thread, the query changes and the old effect emits;
  // both are queued, the change first. When it is reduced, the old effect is cancelled and its
  // queued event dropped.
  @Test func queuedEventsOfACancelledEffectAreDroppedAcrossThreads() async {
    let gate = Gate()
    let results = PublishSubject<String, Never>()
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(start: { context in
          context.states.subscribe(onNext: { if $0.holds == 1 { gate.block() } })
        }),
        Feedback(skippingRepeated: \.query) { query in
          results.map { SearchEvent.found("\(query): \($0)") }
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    loop.send(.type("a"))
    let busy = Background { loop.send(.hold) }
    #expect(await gate.waitUntilBlocked())
    loop.send(.type("b"))  // queued: the other thread is processing
    results.onNext("1")  // the effect for "a" emits; its event is queued behind the change
    gate.release()
    #expect(await busy.wait())
    #expect(loop.currentState.results == [])
    results.onNext("2")
    #expect(loop.currentState.results == ["b: 2"])
    await loop.shutdown()
  }

  // AT-27: an external source emits 1, 2, 3 and completes while the loop is busy on another
  // thread: when it is free again, all three are reduced (states 6, 7, 9, 12).
  @Test func externalSourceCompletingIsNotCancellation() async {
    let gate = Gate()
    let source = PublishSubject<Int, Never>()
    let states = Recorder<Int>()
    let loop = FeedbackLoop<Int, Int>(
      initialState: 0,
      reduce: { total, value in total + value },
      feedbacks: [
        Feedback(start: { context in
          context.states.subscribe(onNext: { total in
            states.append(total)
            if total == 6 { gate.block() }
          })
        }),
        .input(source),
      ],
      scheduler: ImmediateScheduler.instance
    )
    let busy = Background { loop.send(6) }
    #expect(await gate.waitUntilBlocked())
    source.onNext(1)
    source.onNext(2)
    source.onNext(3)
    source.onCompleted()
    gate.release()
    #expect(await busy.wait())
    #expect(states.values == [0, 6, 7, 9, 12])
    await loop.shutdown()
  }

  // AT-27 for effects: an effect whose stream emits and completes while the loop is busy keeps its
  // events; only cancellation drops them.
  @Test func completedEffectKeepsItsQueuedEvents() async {
    let gate = Gate()
    let source = PublishSubject<String, Never>()
    let loop = FeedbackLoop<Search, SearchEvent>(
      initialState: Search(query: "q"),
      reduceInPlace: Self.reduce,
      feedbacks: [
        Feedback(start: { context in
          context.states.subscribe(onNext: { if $0.holds == 1 { gate.block() } })
        }),
        Feedback(skippingRepeated: \.query) { _ in source.map { SearchEvent.found($0) } },
      ],
      scheduler: ImmediateScheduler.instance
    )
    let busy = Background { loop.send(.hold) }
    #expect(await gate.waitUntilBlocked())
    source.onNext("1")
    source.onNext("2")
    source.onCompleted()
    gate.release()
    #expect(await busy.wait())
    #expect(loop.currentState.results == ["1", "2"])
    await loop.shutdown()
  }

  // AT-26 under load: effects emit from their own threads while the query keeps changing; an
  // event is only ever reduced while its effect's query is the current one.
  @Test func cancelledEffectsNeverChangeTheState() async {
    struct Generations: Sendable {
      var generation = 0
      var reduced = 0
      var stale = 0
    }
    enum Step: Sendable {
      case next
      case tick(Int)
    }
    let loop = FeedbackLoop<Generations, Step>(
      initialState: Generations(),
      reduceInPlace: { state, step in
        switch step {
        case .next: state.generation += 1
        case .tick(let generation):
          state.reduced += 1
          if generation != state.generation { state.stale += 1 }
        }
      },
      feedbacks: [
        // Holds each new generation's delivery a little, before the effect is replaced, so that
        // the running effect's events queue up behind it.
        Feedback(start: { context in
          context.states.map(\.generation).distinctUntilChanged().subscribe(onNext: { _ in
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .microseconds(50))
            while clock.now < deadline {}
          })
        }),
        Feedback(skippingRepeated: \.generation) { generation in
          Observable<Step, Never>.create { observer in
            let stopped = Atomic<Bool>(false)
            let worker = Background {
              for _ in 0..<500 {
                if stopped.load(ordering: .acquiring) { break }
                observer.onNext(.tick(generation))
              }
            }
            return Disposables.create {
              stopped.store(true, ordering: .releasing)
              _ = worker
            }
          }
        },
      ],
      scheduler: ImmediateScheduler.instance
    )
    // The latest state, for waiting on: delivered by whichever thread reduces.
    let latest = Watched(Generations())
    let watching = loop.states.subscribe(onNext: { latest.set($0) })
    // Each change lands while the current effect's thread is emitting.
    let finished = await runOnThreads(1) { _ in
      for _ in 0..<200 {
        let before = loop.currentState.reduced
        loop.send(.next)
        var spins = 0
        while loop.currentState.reduced == before && spins < 100_000 { spins += 1 }
      }
    }
    #expect(finished)
    // A send that found the effect's thread processing is queued, and reduced by that thread:
    // wait until every generation has been, and until a tick has been reduced (the last
    // generation's effect is never cancelled, so its ticks are).
    await loop.settle()
    #expect(loop.currentState.generation == 200)
    #expect(await latest.wait { $0.generation == 200 && $0.reduced > 0 })
    watching.dispose()
    await loop.shutdown()
    #expect(loop.currentState.generation == 200)
    #expect(loop.currentState.reduced > 0)
    #expect(loop.currentState.stale == 0)
  }
}
