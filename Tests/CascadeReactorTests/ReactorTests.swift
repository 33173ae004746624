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
