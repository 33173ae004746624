import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactorKit's re-entrancy cases (ReactorKit/ReactorKit,
// Tests/ReactorKitTests/ReactorReentrancyTests.swift): an action sent while the reactor is
// processing another (from a state subscriber, or from `reduce`) is processed after it, never
// inside it. The reactors are in ReactorKit's form and deliver on the reducing thread.

/// Logs entering and leaving each action.
///
/// Each action's `mutate` emits an enter and an exit mutation. When `followUpFromReduce` is set,
/// reducing the first "enter A" sends `.b`.
private final class LogReactor: Reactor {
  enum Action: Sendable {
    case a
    case b
  }

  enum Mutation: Sendable {
    case enterA
    case exitA
    case enterB
    case exitB
  }

  struct State: Sendable {
    var log: [String] = []
  }

  let initialState = State()
  private let followUpFromReduce: Bool
  private let didTriggerFollowUp = LockedBox(false)

  var scheduler: any Scheduler { ImmediateScheduler.instance }

  init(followUpFromReduce: Bool = false) {
    self.followUpFromReduce = followUpFromReduce
  }

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .a: .from([.enterA, .exitA])
    case .b: .from([.enterB, .exitB])
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var newState = state
    switch mutation {
    case .enterA:
      newState.log.append("enter A")
      if followUpFromReduce && !didTriggerFollowUp.value {
        didTriggerFollowUp.value = true
        action.onNext(.b)
      }
    case .exitA: newState.log.append("exit A")
    case .enterB: newState.log.append("enter B")
    case .exitB: newState.log.append("exit B")
    }
    return newState
  }
}

/// A route: dismissing sets none, presenting sets one.
private final class RouteReactor: Reactor {
  enum Action: Sendable {
    case dismiss
    case present(String)
  }

  enum Mutation: Sendable {
    case setRoute(String?)
  }

  struct State: Sendable {
    var route: String?
  }

  let initialState = State(route: "initial")

  var scheduler: any Scheduler { ImmediateScheduler.instance }

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .dismiss: .just(.setRoute(nil))
    case .present(let route): .just(.setRoute(route))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var newState = state
    switch mutation {
    case .setRoute(let route):
      newState.route = route
    }
    return newState
  }
}

@Suite(.checksResources)
struct ReactorKitReactorReentrancyTests {
  /// An action a state subscriber sends while the reactor is in the middle of another action's
  /// mutations is processed after that action's last mutation.
  @Test func test_reentrantActionFromStateSubscriber_isSerialized() {
    let reactor = LogReactor()
    let disposeBag = DisposeBag()
    let didDispatchB = LockedBox(false)

    reactor.state
      .subscribe(onNext: { state in
        if !didDispatchB.value && state.log.contains("enter A") {
          didDispatchB.value = true
          reactor.action.onNext(.b)
        }
      })
      .disposed(by: disposeBag)

    reactor.action.onNext(.a)

    #expect(reactor.currentState.log == ["enter A", "exit A", "enter B", "exit B"])
  }

  /// An action sent from inside `reduce` is queued: it is processed after the current action's
  /// mutations, not recursively inside `reduce`.
  @Test func test_reentrantActionFromReduce_doesNotRecurse() {
    let reactor = LogReactor(followUpFromReduce: true)
    let subscription = reactor.state.subscribe()

    reactor.action.onNext(.a)

    #expect(reactor.currentState.log == ["enter A", "exit A", "enter B", "exit B"])
    subscription.dispose()
  }

  /// A state subscriber that presents a new route as soon as it sees the dismissal ends with
  /// the new route: its action is applied after the dismissal, not lost or overwritten.
  @Test func test_dismissThenPresent_routingPattern() {
    let reactor = RouteReactor()
    let disposeBag = DisposeBag()
    let didPresent = LockedBox(false)

    reactor.state
      .subscribe(onNext: { state in
        if !didPresent.value && state.route == nil {
          didPresent.value = true
          reactor.action.onNext(.present("next"))
        }
      })
      .disposed(by: disposeBag)

    reactor.action.onNext(.dismiss)

    #expect(reactor.currentState.route == "next")
  }
}
