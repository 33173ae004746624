import CascadeMiddleware
import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// What happens when a reactor is released: its work in flight ends, nothing is delivered
/// afterwards, and nothing keeps it alive.
@Suite(.checksResources)
struct ReactorLifecycleTests {
  struct Noting: Middleware {
    func process(event: LongReactor.Action, state: Int) {}
  }

  final class LongReactor: Reactor {
    enum Action: Sendable {
      case add(Int)
      case forever
      case endlessStream
      case later
      case escape
      case completes
    }

    let initialState = 0
    let runtime = ReactorRuntime<Action, Int, Int>()
    let clock: TestScheduler
    let cancelled: Counter
    /// Fired by the `.forever` operation once it runs, inside its cancellation handler.
    let started: CascadeTestSupport.Signal
    let escaped: LockedBox<MutationSender<Int>?>
    let withMiddleware: Bool

    init(
      clock: TestScheduler,
      cancelled: Counter = Counter(),
      started: CascadeTestSupport.Signal = Signal(),
      escaped: LockedBox<MutationSender<Int>?> = LockedBox(nil),
      withMiddleware: Bool = false
    ) {
      self.clock = clock
      self.cancelled = cancelled
      self.started = started
      self.escaped = escaped
      self.withMiddleware = withMiddleware
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
    var middlewares: [any Middleware<Action, Int>] { withMiddleware ? [Noting()] : [] }

    func mutate(action: Action) -> Mutations<Int> {
      let cancelled = cancelled
      let started = started
      switch action {
      case .add(let amount):
        return [amount]
      case .forever:
        return .run { _ in
          await withTaskCancellationHandler {
            started.fire()
            // The work: it runs until cancelled.
            try? await suspendUntilCancelled()
          } onCancel: {
            cancelled.increment()
          }
        }
      case .endlessStream:
        return .stream(
          Observable<Int, any Error>.never().do(onDispose: { cancelled.increment() })
        )
      case .later:
        return .stream(Observable.just(100).delay(.seconds(5), scheduler: clock))
      case .escape:
        let escaped = escaped
        return .run { send in escaped.value = send }
      case .completes:
        return .run { send in send(1) }
      }
    }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  // AT-31: releasing the reactor ends a never-ending operation and a never-ending stream (their
  // cancel handlers run), and a weak probe to the reactor is nil.
  @Test func releasingTheReactorCancelsWorkInFlight() async {
    let clock = TestScheduler()
    let cancelled = Counter()
    let started = Signal()
    var reactor: LongReactor? = LongReactor(clock: clock, cancelled: cancelled, started: started)
    weak let weakReactor = reactor
    reactor?.send(.forever)
    reactor?.send(.endlessStream)
    // The operation is running inside its cancellation handler, so its cancellation is observed.
    #expect(await started.wait())
    #expect(reactor?.effectsInFlight == 2)  // the operation and the stream
    reactor = nil
    #expect(weakReactor == nil)
    #expect(await cancelled.wait { $0 == 2 })
  }

  // AT-32: nothing is delivered after the reactor is released: a stream mutation due later never
  // arrives (its timer is cancelled), and a mutation sent through an escaped sender is dropped.
  @Test func noLateStateAfterRelease() async {
    let clock = TestScheduler()
    let escaped = LockedBox<MutationSender<Int>?>(nil)
    var reactor: LongReactor? = LongReactor(clock: clock, escaped: escaped)
    let states = Recorder<Int>()
    let completed = Counter()
    let subscription = reactor!.state.subscribe(
      onNext: { states.append($0) },
      onCompleted: { completed.increment() }
    )
    reactor?.send(.add(1))
    reactor?.send(.escape)
    // The `.escape` operation has stored its sender and ended (`finish()` comes before `.later`,
    // whose stream it would wait for).
    await reactor?.finish()
    #expect(escaped.value != nil)
    #expect(reactor?.effectsInFlight == 0)
    reactor?.send(.later)
    #expect(clock.pendingCount == 2)  // the stream's mutation and its completion, due at 5 s
    reactor = nil
    #expect(clock.pendingCount == 0)
    await clock.advance(by: .seconds(10))
    withKnownIssue {
      escaped.value?(7)  // dropped, with a diagnostic (a warning) naming the mutation
    } matching: { issue in
      issue.description.contains("mutation 7") && issue.description.contains("dropped")
    }
    escaped.value = nil
    #expect(states.values == [0, 1])
    #expect(completed.value == 1)  // the state stream ended with the reactor
    subscription.dispose()
  }

  // AT-39: a reactor with a middleware, three state subscriptions, a completed operation, an
  // operation and a stream mutation in flight leaves no cycle: the reactor and its runtime are
  // released while the subscriptions are still held, and every subscription ends (the suite's
  // resource check covers every sink, timer and task).
  @Test func noRetainCycles() async {
    let clock = TestScheduler()
    let cancelled = Counter()
    let started = Signal()
    var reactor: LongReactor? = LongReactor(
      clock: clock,
      cancelled: cancelled,
      started: started,
      withMiddleware: true
    )
    weak let weakReactor = reactor
    weak let weakRuntime = reactor?.runtime
    let ended = Counter()
    let subscriptions = (0..<3).map { index in
      reactor!.state.map { $0 + index }
        .subscribe(onNext: { _ in }, onCompleted: { ended.increment() })
    }
    reactor?.send(.completes)
    // The completed operation has ended and its mutation is applied (`finish()` comes before the
    // work that never ends, which it would wait for).
    await reactor?.finish()
    #expect(reactor?.currentState == 1)
    reactor?.send(.forever)
    reactor?.send(.later)
    #expect(await started.wait())  // the operation runs, inside its cancellation handler
    #expect(reactor?.effectsInFlight == 2)  // the operation and the `.later` stream
    #expect(clock.pendingCount == 2)  // the `.later` stream's mutation and completion
    reactor = nil
    #expect(weakReactor == nil)
    #expect(weakRuntime == nil)
    #expect(ended.value == 3)
    #expect(clock.pendingCount == 0)
    #expect(await cancelled.wait { $0 == 1 })
    for subscription in subscriptions { subscription.dispose() }
  }

  // Finished streams are not kept until the reactor goes: after many stream mutations complete,
  // the live resources are back where they were, with the reactor still alive.
  // The test's own account counts them (other tests run in parallel and move the process total).
  @Test func finishedStreamsAreReleased() throws {
    let account = try #require(ResourceAccount.current)
    let clock = TestScheduler()
    let reactor = LongReactor(clock: clock)
    _ = reactor.currentState
    let before = account.live
    for _ in 0..<100 { reactor.send(.later) }
    #expect(account.live > before)
    clock.advance(by: .seconds(5))
    #expect(reactor.currentState == 10_000)
    #expect(account.live == before)
  }
}
