import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// What `mutate(action:)` returns: the ReactorKit README's Profile example (mutations from API
/// streams) and every form of `Mutations`.
@Suite(.checksResources)
struct MutationsTests {
  /// A fake of the README's `UserAPI`: answers after one virtual second.
  struct UserAPI: Sendable {
    let scheduler: TestScheduler
    let following = LockedBox<Set<Int>>([])

    func isFollowing(_ userID: Int) -> Observable<Bool, any Error> {
      let following = following
      return Observable.deferred { .just(following.value.contains(userID)) }
        .delay(.seconds(1), scheduler: scheduler)
    }

    func follow(_ userID: Int) -> Observable<Void, any Error> {
      let following = following
      return Observable.deferred {
        following.value.insert(userID)
        return .just(())
      }
      .delay(.seconds(1), scheduler: scheduler)
    }
  }

  // ReactorKit README, "Reactor": the Profile reactor, whose mutations come from API streams.
  final class ProfileViewReactor: Reactor {
    // represent user actions
    enum Action: Sendable {
      case refreshFollowingStatus(Int)
      case follow(Int)
    }

    // represent state changes
    enum Mutation: Sendable {
      case setFollowing(Bool)
    }

    // represents the current view state
    struct State: Sendable, Equatable {
      var isFollowing: Bool = false
    }

    let initialState: State = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let userAPI: UserAPI

    init(userAPI: UserAPI) {
      self.userAPI = userAPI
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .refreshFollowingStatus(let userID):  // receive an action
        return .stream(
          userAPI.isFollowing(userID)  // create an API stream
            .map { (isFollowing: Bool) -> Mutation in
              Mutation.setFollowing(isFollowing)  // convert to Mutation stream
            }
        )

      case .follow(let userID):
        return .stream(
          userAPI.follow(userID)
            .map { _ -> Mutation in
              Mutation.setFollowing(true)
            }
        )
      }
    }

    func reduce(state: State, mutation: Mutation) -> State {
      var state = state  // create a copy of the old state
      switch mutation {
      case .setFollowing(let isFollowing):
        state.isFollowing = isFollowing  // manipulate the state, creating a new state
        return state  // return the new state
      }
    }
  }

  @Test func profileFollowsAUser() {
    let scheduler = TestScheduler()
    let api = UserAPI(scheduler: scheduler)
    let reactor = ProfileViewReactor(userAPI: api)
    let isFollowing = Recorder<Bool>()
    let subscription = reactor.state.map(\.isFollowing).subscribe(onNext: {
      isFollowing.append($0)
    })

    reactor.action.onNext(.refreshFollowingStatus(7))
    scheduler.advance(by: .seconds(1))
    #expect(reactor.currentState.isFollowing == false)

    reactor.action.onNext(.follow(7))
    #expect(reactor.currentState.isFollowing == false)  // the request is in flight
    scheduler.advance(by: .seconds(1))
    #expect(reactor.currentState.isFollowing == true)

    api.following.value = []
    reactor.action.onNext(.refreshFollowingStatus(7))
    scheduler.advance(by: .seconds(1))
    #expect(isFollowing.values == [false, true, false])
    subscription.dispose()
  }

  // Every form of `Mutations`, SwiftReactor's and ReactorKit's.
  final class LogReactor: Reactor {
    enum Action: Sendable {
      case nothing
      case literal
      case single
      case just
      case syncThenStream
      case stream
      case run
    }

    let initialState: [String] = []
    let runtime = ReactorRuntime<Action, String, [String]>()
    let clock: TestScheduler

    init(clock: TestScheduler) {
      self.clock = clock
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<String> {
      switch action {
      case .nothing:
        return .none
      case .literal:
        return ["literal 1", "literal 2"]
      case .single:
        return Mutations(sync: "single")
      case .just:
        return .just("just")
      case .syncThenStream:
        return Mutations(
          sync: "sync",
          async: Observable.just("async").delay(.seconds(1), scheduler: clock)
        )
      case .stream:
        return .stream(Observable.from(["stream 1", "stream 2"]))
      case .run:
        return .run { send in
          send("run 1")
          send("run 2")
        }
      }
    }

    func reduce(into state: inout [String], mutation: String) {
      state.append(mutation)
    }
  }

  @Test func noneChangesNothing() {
    let reactor = LogReactor(clock: TestScheduler())
    let states = Recorder<[String]>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    reactor.send(.nothing)
    #expect(reactor.currentState == [])
    #expect(states.values == [[]])
    subscription.dispose()
  }

  @Test func synchronousFormsApplyBeforeSendReturns() {
    let reactor = LogReactor(clock: TestScheduler())
    reactor.send(.literal)
    #expect(reactor.currentState == ["literal 1", "literal 2"])
    reactor.send(.single)
    reactor.send(.just)
    #expect(reactor.currentState == ["literal 1", "literal 2", "single", "just"])
  }

  // SwiftReactor's `Mutations(sync:async:)`: the synchronous mutation at once, the stream's later.
  @Test func syncThenAsync() {
    let clock = TestScheduler()
    let reactor = LogReactor(clock: clock)
    reactor.send(.syncThenStream)
    #expect(reactor.currentState == ["sync"])
    clock.advance(by: .seconds(1))
    #expect(reactor.currentState == ["sync", "async"])
  }

  // A stream that emits at subscription is subscribed while the action is processed; its
  // mutations are applied right after the action, in order, before `send` returns.
  @Test func synchronousStreamAppliesInOrder() {
    let reactor = LogReactor(clock: TestScheduler())
    reactor.send(.stream)
    reactor.send(.single)
    #expect(reactor.currentState == ["stream 1", "stream 2", "single"])
  }

  @Test func operationSendsInOrder() async {
    let reactor = LogReactor(clock: TestScheduler())
    reactor.send(.run)
    await reactor.finish()  // the operation ended and both its mutations are applied
    #expect(reactor.effectsInFlight == 0)
    #expect(reactor.currentState == ["run 1", "run 2"])
  }
}
