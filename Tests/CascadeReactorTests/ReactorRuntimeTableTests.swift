import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Reactors that declare no `runtime` property, whose runtime the shared table keeps
/// (`ReactorRuntimes`), under ThreadSanitizer in CI.
///
/// Serialized: `takingInAReactorSweeps` counts on the table being small enough to sweep on every
/// new reactor, which the many reactors of `manyThreadsMakeUseAndReleaseReactors` might not leave
/// it.
@Suite(.serialized, .checksResources)
struct ReactorRuntimeTableTests {
  /// A counter with no `runtime` property.
  final class CountReactor: Reactor {
    typealias Action = Int

    let initialState = 0

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  /// The same counter, declaring its `runtime`: the fast path, which skips the table.
  final class CountReactorWithRuntime: Reactor {
    typealias Action = Int

    let initialState = 0
    let runtime = ReactorRuntime<Int, Int, Int>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  /// A reactor with no `runtime` property whose work never ends on its own.
  final class EndlessReactor: Reactor {
    enum Action: Sendable {
      case forever
      case endlessStream
      case relayed
    }

    let initialState = 0
    let cancelled: Counter
    let started: CascadeTestSupport.Signal
    let relay: PublishSubject<Int, Never>

    init(
      cancelled: Counter,
      started: CascadeTestSupport.Signal,
      relay: PublishSubject<Int, Never> = .init()
    ) {
      self.cancelled = cancelled
      self.started = started
      self.relay = relay
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Int> {
      let cancelled = cancelled
      let started = started
      switch action {
      case .forever:
        return .run { _ in
          await withTaskCancellationHandler {
            started.fire()
            try? await suspendUntilCancelled()
          } onCancel: {
            cancelled.increment()
          }
        }
      case .endlessStream:
        return .stream(
          Observable<Int, any Error>.never().do(onDispose: { cancelled.increment() })
        )
      case .relayed:
        return .stream(relay.asObservable().do(onDispose: { cancelled.increment() }))
      }
    }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  @Test func aReactorWithoutRuntimeGetsOneFromTheTable() {
    let reactor = CountReactor()
    let other = CountReactor()
    reactor.send(1)
    reactor.action.onNext(2)
    other.send(5)
    #expect(reactor.currentState == 3)
    #expect(other.currentState == 5)
    #expect(reactor.runtime === reactor.runtime)
    #expect(reactor.runtime !== other.runtime)
    #expect(ReactorRuntimes.holdsRuntime(for: reactor))
  }

  @Test func aReactorWithRuntimeNeverUsesTheTable() {
    let reactor = CountReactorWithRuntime()
    let states = Recorder<Int>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    reactor.send(1)
    reactor.send(2)
    #expect(reactor.currentState == 3)
    #expect(states.values == [0, 1, 3])
    #expect(!ReactorRuntimes.holdsRuntime(for: reactor))
    subscription.dispose()
  }

  // A released reactor's runtime goes with the next sweep: its work in flight is cancelled and its
  // state stream ends. (With a declared `runtime`, that happens at the release itself:
  // `ReactorLifecycleTests`.)
  @Test func purgingAfterReleaseCancelsWorkInFlight() async {
    let cancelled = Counter()
    let started = Signal()
    let completed = Counter()
    var reactor: EndlessReactor? = EndlessReactor(cancelled: cancelled, started: started)
    weak let weakReactor = reactor
    let subscription = reactor!.state.subscribe(
      onNext: { _ in },
      onCompleted: { completed.increment() }
    )
    reactor?.send(.forever)
    reactor?.send(.endlessStream)
    #expect(await started.wait())
    #expect(reactor?.effectsInFlight == 2)
    reactor = nil
    #expect(weakReactor == nil)  // the table does not keep the reactor alive
    ReactorRuntimes.purgeReleased()
    #expect(await cancelled.wait { $0 == 2 })
    #expect(await completed.wait { $0 == 1 })
    subscription.dispose()
  }

  // A released reactor's work ends at the first input it sends after the release, before any
  // sweep: that input is dropped, the other work in flight is cancelled and the state stream
  // ends; the table still holds the runtime until it is swept.
  @Test func theFirstInputAfterReleaseEndsTheWork() async {
    let cancelled = Counter()
    let started = Signal()
    let completed = Counter()
    let relay = PublishSubject<Int, Never>()
    var reactor: EndlessReactor? = EndlessReactor(
      cancelled: cancelled,
      started: started,
      relay: relay
    )
    weak let weakReactor = reactor
    let states = Recorder<Int>()
    let subscription = reactor!.state.subscribe(
      onNext: { states.append($0) },
      onCompleted: { completed.increment() }
    )
    reactor?.send(.forever)
    reactor?.send(.relayed)
    #expect(await started.wait())
    relay.onNext(1)
    #expect(states.values == [0, 1])
    #expect(reactor?.effectsInFlight == 2)
    let address = ObjectIdentifier(reactor!)
    reactor = nil
    #expect(weakReactor == nil)
    #expect(cancelled.value == 0)  // nothing has looked yet
    relay.onNext(2)
    #expect(await cancelled.wait { $0 == 2 })  // the task's handler, and the relayed stream
    #expect(completed.value == 1)
    #expect(states.values == [0, 1])
    #expect(ReactorRuntimes.holdsRuntime(for: address))
    subscription.dispose()
    ReactorRuntimes.purgeReleased()
  }

  // Taking in a new reactor sweeps the table: the runtimes of released reactors go without an
  // explicit purge.
  @Test func takingInAReactorSweeps() async {
    let completed = Counter()
    var subscriptions: [any Disposable] = []
    for _ in 0..<10 {
      let reactor = CountReactor()
      reactor.send(1)
      subscriptions.append(
        reactor.state.subscribe(onNext: { _ in }, onCompleted: { completed.increment() })
      )
    }
    let next = CountReactor()
    next.send(1)
    #expect(await completed.wait { $0 == 10 })
    #expect(next.currentState == 1)
    for subscription in subscriptions { subscription.dispose() }
  }

  // A reactor made after another was released never finds the released one's runtime, even
  // before a sweep (the table keeps a released reactor's memory until it sweeps its entry, so
  // that no new object takes its identity).
  @Test func aNewReactorNeverGetsAReleasedOnesRuntime() {
    for index in 0..<200 {
      let reactor = CountReactor()
      #expect(reactor.currentState == 0)
      reactor.send(index + 1)
      #expect(reactor.currentState == index + 1)
    }
  }

  /// A weak reference that closures may share.
  final class WeakProbe: Sendable {
    weak let object: (any AnyObject & Sendable)?

    init(_ object: any AnyObject & Sendable) { self.object = object }
  }

  // A sweep that another thread began as it took in a reactor holds the entries it looked at
  // until it ends: `purgeReleased()` waits for it, so that the runtime of a reactor released
  // before the call is released when it returns, even if that other sweep still held it.
  @Test func purgingWaitsForASweepAnotherThreadBegan() async {
    let pauseNext = LockedValue(false)
    let looked = CascadeTestSupport.Signal()
    let resume = CascadeTestSupport.Signal()
    let purgeWaited = CascadeTestSupport.Signal()
    let purgeReturned = CascadeTestSupport.Signal()
    let table = RuntimeTable(
      hooks: .init(
        afterLooking: {
          guard
            pauseNext.withLock({ pause in
              defer { pause = false }
              return pause
            })
          else {
            return
          }
          looked.fire()
          _ = resume.waitBlocking()
        },
        waiting: { purgeWaited.fire() }
      )
    )
    let released = LockedValue<CountReactor?>(CountReactor())
    let probe = WeakProbe(
      table.insert(ReactorRuntime<Int, Int, Int>(), for: released.withLock { $0! })
    )

    // Another thread takes in a reactor; its sweep looks at the entries (the released one's
    // among them, still alive) and is paused there.
    pauseNext.withLock { $0 = true }
    let other = CountReactor()
    async let sweeping: Void = onOwnThread {
      _ = table.insert(ReactorRuntime<Int, Int, Int>(), for: other)
    }
    #expect(await looked.wait())
    released.withLock { $0 = nil }

    // The purge removes the entry, but the paused sweep still holds it: the purge waits.
    async let purging: Bool = onOwnThread {
      _ = table.purgeReleased()
      defer { purgeReturned.fire() }
      return probe.object == nil
    }
    let progressed = Counter()
    Task {
      _ = await purgeWaited.wait()
      progressed.increment()
    }
    Task {
      _ = await purgeReturned.wait()
      progressed.increment()
    }
    #expect(await progressed.wait { $0 >= 1 })
    #expect(purgeWaited.hasFired, "the purge returned while another sweep held a runtime")
    resume.fire()
    await sweeping
    #expect(await purging, "the released reactor's runtime outlived the purge")
    #expect(table.count == 1)
    withExtendedLifetime(other) {}
  }

  // Many threads make, use, share and release reactors with no `runtime`, and purge, at once:
  // shared reactors started by many threads at once have one runtime (nothing lost), and every
  // released reactor's runtime is released (its state stream completes).
  @Test func manyThreadsMakeUseAndReleaseReactors() async {
    let threads = 8
    let rounds = 100
    let shared = (0..<4).map { _ in CountReactor() }
    let completed = Counter()
    let wrong = Counter()
    let finished = await runOnThreads(threads) { thread in
      for round in 0..<rounds {
        let reactor = CountReactor()
        let subscription = reactor.state.subscribe(
          onNext: { _ in },
          onCompleted: { completed.increment() }
        )
        reactor.send(thread)
        reactor.send(round)
        if reactor.currentState != thread + round { wrong.increment() }
        for counter in shared { counter.send(1) }
        if round.isMultiple(of: 10) { ReactorRuntimes.purgeReleased() }
        // Not disposed: it ends when the reactor's runtime is released.
        _ = subscription
      }
    }
    #expect(finished)
    #expect(wrong.value == 0)
    for counter in shared { #expect(counter.currentState == threads * rounds) }
    ReactorRuntimes.purgeReleased()
    #expect(await completed.wait { $0 == threads * rounds })
  }
}
