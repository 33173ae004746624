import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ReactorTests {
  final class CounterReactor: Reactor {
    enum Action: Sendable { case increase, decrease, increaseLater }
    enum Mutation: Sendable { case increaseValue, decreaseValue }
    struct State: Sendable, Equatable { var value = 0 }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let clock: TestScheduler

    init(clock: TestScheduler) {
      self.clock = clock
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .increase: .just(.increaseValue)
      case .decrease: .just(.decreaseValue)
      case .increaseLater:
        .stream(Observable.just(Mutation.increaseValue).delay(.seconds(1), scheduler: clock))
      }
    }

    func reduce(state: State, mutation: Mutation) -> State {
      var newState = state
      switch mutation {
      case .increaseValue: newState.value += 1
      case .decreaseValue: newState.value -= 1
      }
      return newState
    }
  }

  @Test func synchronousMutationsApplyBeforeSendReturns() {
    let reactor = CounterReactor(clock: TestScheduler())
    reactor.action.onNext(.increase)
    #expect(reactor.currentState.value == 1)
    reactor.send(.decrease)
    reactor.send(.decrease)
    #expect(reactor.currentState.value == -1)
  }

  @Test func streamMutationsApplyOnVirtualTime() {
    let clock = TestScheduler()
    let reactor = CounterReactor(clock: clock)
    let values = Recorder<Int>()
    let subscription = reactor.state.map(\.value).subscribe(onNext: { values.append($0) })
    reactor.send(.increaseLater)
    #expect(reactor.currentState.value == 0)
    clock.advance(by: .seconds(1))
    #expect(reactor.currentState.value == 1)
    #expect(values.values == [0, 1])
    subscription.dispose()
  }
}

@Suite(.checksResources)
struct ReactorLifetimeTests {
  final class Looper: Reactor {
    enum Action: Sendable { case start }
    struct State: Sendable { var ticks = 0 }
    typealias Mutation = Int

    let initialState = State()
    let runtime = ReactorRuntime<Action, Int, State>()
    let cancelled: Counter
    var scheduler: any Scheduler { ImmediateScheduler.instance }

    init(cancelled: Counter) {
      self.cancelled = cancelled
    }

    func mutate(action: Action) -> Mutations<Int> {
      let cancelled = cancelled
      return .run { _ in
        await withTaskCancellationHandler {
          while !Task.isCancelled { await Task.yield() }
        } onCancel: {
          cancelled.increment()
        }
      }
    }

    func reduce(into state: inout State, mutation: Int) { state.ticks += mutation }
  }

  // AT-31: releasing a reactor cancels its work in flight and frees it.
  @Test func releasingTheReactorCancelsItsWork() async {
    let cancelled = Counter()
    var reactor: Looper? = Looper(cancelled: cancelled)
    weak let weakReactor = reactor
    reactor?.send(.start)
    let probe = reactor!
    #expect(await eventually { probe.operationsInFlight == 1 })
    _ = consume probe
    reactor = nil
    #expect(weakReactor == nil)
    #expect(await eventually { cancelled.value == 1 })
  }
}
