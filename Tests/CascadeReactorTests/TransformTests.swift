import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// The three `transform` hooks: a global state merged into the mutations (ReactorKit README,
/// "Global States"), a debugging tap and a rewrite of the actions, and a rework of the states.
@Suite(.checksResources)
struct TransformTests {
  struct User: Sendable, Equatable {
    var name: String
  }

  // ReactorKit README, "Global States": `Mutation.setUser` is emitted each time the view sends
  // an action and each time the global `currentUser` changes.
  final class ProfileReactor: Reactor {
    enum Action: Sendable {
      case setBio(String)
    }

    enum Mutation: Sendable {
      case setUser(User)
      case setBio(String)
    }

    struct State: Sendable, Equatable {
      var user: User?
      var bio = ""
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let currentUser: BehaviorSubject<User, Never>  // global state
    let transforms = Counter()

    init(currentUser: BehaviorSubject<User, Never>) {
      self.currentUser = currentUser
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .setBio(let bio): [.setBio(bio)]
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .setUser(let user): state.user = user
      case .setBio(let bio): state.bio = bio
      }
    }

    func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
      transforms.increment()
      return Observable.merge(mutation, currentUser.map(Mutation.setUser).asObservable())
    }
  }

  @Test func globalStateIsMergedIntoTheMutations() {
    let currentUser = BehaviorSubject<User, Never>(User(name: "devxoul"))
    let reactor = ProfileReactor(currentUser: currentUser)
    let states = Recorder<ProfileReactor.State>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    // The reactor started on first use and applied the global state's current value.
    #expect(reactor.currentState.user == User(name: "devxoul"))

    reactor.action.onNext(.setBio("hi"))
    #expect(reactor.currentState.bio == "hi")  // still before `onNext` returned
    currentUser.onNext(User(name: "tokijh"))
    #expect(reactor.currentState == ProfileReactor.State(user: User(name: "tokijh"), bio: "hi"))
    #expect(
      states.values.map { "\($0.user?.name ?? "-") \($0.bio)" } == [
        "devxoul ", "devxoul hi", "tokijh hi",
      ]
    )
    // The hook ran once, however many actions and subscriptions there were.
    let second = reactor.state.subscribe(onNext: { _ in })
    reactor.send(.setBio("again"))
    #expect(reactor.transforms.value == 1)
    subscription.dispose()
    second.dispose()
  }

  // ReactorKit README, "transform()": the hooks "can be also used for debugging purposes"
  // (`action.debug("action")`); here a tap that logs every action, and a map that rewrites some.
  final class CounterReactor: Reactor {
    enum Action: Sendable, Equatable {
      case increase
      case decrease
      case reset
    }

    let initialState = 0
    let runtime = ReactorRuntime<Action, Action, Int>()
    let log = Recorder<String>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into state: inout Int, mutation: Action) {
      switch mutation {
      case .increase: state += 1
      case .decrease: state -= 1
      case .reset: state = 0
      }
    }

    func transform(action: Observable<Action, Never>) -> Observable<Action, Never> {
      let log = log
      return
        action
        .do(onNext: { log.append("action: \($0)") })  // action.debug("action")
        .map { $0 == .decrease ? .reset : $0 }  // a rewrite: decreasing resets
        .asObservable()
    }

    // The states seen by views carry at least 10: a rework of the state stream (not of
    // `currentState`, which is the reactor's own).
    func transform(state: Observable<Int, Never>) -> Observable<Int, Never> {
      state.map { max($0, 10) }.asObservable()
    }
  }

  @Test func actionsAreTappedAndRewritten() {
    let reactor = CounterReactor()
    let states = Recorder<Int>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    reactor.action.onNext(.increase)
    reactor.action.onNext(.increase)
    #expect(reactor.currentState == 2)  // applied before `onNext` returned
    reactor.action.onNext(.decrease)
    #expect(reactor.currentState == 0)
    #expect(
      reactor.log.values == ["action: increase", "action: increase", "action: decrease"]
    )
    #expect(states.values == [10])  // 0, 1, 2, 0 seen through the state transform
    for _ in 0..<12 { reactor.send(.increase) }
    #expect(states.values == [10, 11, 12])
    subscription.dispose()
  }
}
