import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Actions and mutations sent from inside the reactor's own processing (its `reduce`, a state
/// subscriber, a running stream fired from `reduce`) are queued and handled after the current
/// one, never recursively: the same policy as the Store's.
@Suite(.checksResources)
struct ReactorReentrancyTests {
  final class ChainReactor: Reactor {
    enum Action: Sendable, Equatable {
      case a
      case b
      case dismiss
      case present(String)
      case listen
      case tap
    }

    enum Mutation: Sendable {
      case applied(Action)
      case effectOutput
    }

    struct State: Sendable, Equatable {
      var log: [Action] = []
      var presented: String? = "root"
      var flag = false
      var flagSeenByEffect: Bool?
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let reduceLog = Recorder<String>()
    /// Feeds the running effect started by `.listen`.
    let effectInput = PublishSubject<Void, Never>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .listen: .stream(effectInput.map { Mutation.effectOutput })
      default: [.applied(action)]
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .applied(let action):
        reduceLog.append("enter \(action)")
        state.log.append(action)
        switch action {
        case .a:
          send(.b)  // from inside reduce: queued
        case .dismiss:
          state.presented = nil
        case .present(let screen):
          state.presented = screen
        case .tap:
          state.flag = true
          effectInput.onNext(())  // the running effect emits during the reduce
          state.flag = false
        default:
          break
        }
        reduceLog.append("exit \(action)")
      case .effectOutput:
        reduceLog.append("enter effect")
        state.flagSeenByEffect = state.flag
        reduceLog.append("exit effect")
      }
    }
  }

  static func describe(_ state: ChainReactor.State) -> String {
    state.log.isEmpty ? "-" : state.log.map { "\($0)" }.joined(separator: "+")
  }

  // AT-16: an action sent from inside `reduce` is queued: A's and B's reductions run back to
  // back, never nested, both before `send(A)` returns.
  @Test func actionFromReduceIsQueued() {
    let reactor = ChainReactor()
    reactor.send(.a)
    #expect(reactor.reduceLog.values == ["enter a", "exit a", "enter b", "exit b"])
    #expect(reactor.currentState.log == [.a, .b])
  }

  // AT-17: subscriber S1 sends B when it sees the state after A; subscriber S2 records. Every
  // subscriber sees state(A) before any sees state(A+B), and never state(A) after it.
  @Test func actionFromStateSubscriberIsSerialized() {
    let reactor = ChainReactor()
    let seen = Recorder<String>()
    let s1 = reactor.state.subscribe(onNext: { state in
      seen.append("S1 \(Self.describe(state))")
      if state.log == [.dismiss] { reactor.send(.b) }
    })
    let s2 = reactor.state.subscribe(onNext: { state in seen.append("S2 \(Self.describe(state))") })
    reactor.send(.dismiss)
    #expect(
      seen.values == [
        "S1 -", "S2 -",
        "S1 dismiss", "S2 dismiss",
        "S1 dismiss+b", "S2 dismiss+b",
      ]
    )
    s1.dispose()
    s2.dispose()
  }

  // AT-17, the routing case: "dismiss, then present" from a subscriber ends presented.
  @Test func dismissThenPresent() {
    let reactor = ChainReactor()
    let presented = Recorder<String?>()
    let router = reactor.state.subscribe(onNext: { state in
      presented.append(state.presented)
      if state.presented == nil { reactor.send(.present("detail")) }
    })
    reactor.send(.dismiss)
    #expect(reactor.currentState.presented == "detail")
    #expect(presented.values == ["root", nil, "detail"])
    router.dispose()
  }

  // AT-20: output a running effect emits while `tap` is reduced is reduced after `tap`
  // returned, and sees the state `tap` left (`flag == false`).
  @Test func effectOutputDuringReduceIsBuffered() {
    let reactor = ChainReactor()
    reactor.send(.listen)
    reactor.send(.tap)
    #expect(reactor.reduceLog.values == ["enter tap", "exit tap", "enter effect", "exit effect"])
    #expect(reactor.currentState.flagSeenByEffect == false)
  }
}
