import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Reactor nesting, from the SwiftReactor README: a parent whose state embeds a child's state,
/// kept up to date through `transform(mutation:)`, so the parent stays the single source of
/// truth while actions go to the child.
@Suite(.checksResources)
struct NestingTests {
  final class DetailReactor: BaseReactor<
    DetailReactor.Action, DetailReactor.Mutation, DetailReactor.State
  >, @unchecked Sendable
  {
    // Safety: no mutable state of its own; the reactor's state lives in its runtime.
    enum Action: Sendable {
      case ageChanged(Int)
    }

    enum Mutation: Sendable {
      case setAge(Int)
    }

    struct State: Sendable, Equatable {
      var age = 0
    }

    init() {
      super.init(initialState: State())
    }

    override var scheduler: any Scheduler { ImmediateScheduler.instance }

    override func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .ageChanged(let age): [.setAge(age)]
      }
    }

    override func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .setAge(let age): state.age = age
      }
    }
  }

  final class AppReactor: BaseReactor<AppReactor.Action, AppReactor.Mutation, AppReactor.State>,
    @unchecked Sendable
  {
    // Safety: no mutable state of its own; the reactor's state lives in its runtime.
    enum Action: Sendable {
      case nameChanged(String)
    }

    enum Mutation: Sendable {
      case setName(String)
      case setDetail(DetailReactor.State)
    }

    struct State: Sendable, Equatable {
      var name = ""
      var detail: DetailReactor.State
    }

    let detailReactor: DetailReactor

    init() {
      let detailReactor = DetailReactor()
      self.detailReactor = detailReactor

      super.init(
        initialState: State(
          detail: detailReactor.currentState
        )
      )
    }

    override var scheduler: any Scheduler { ImmediateScheduler.instance }

    override func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .nameChanged(let name): [.setName(name)]
      }
    }

    override func reduce(state: State, mutation: Mutation) -> State {
      var newState = state

      switch mutation {
      case .setName(let name):
        newState.name = name
      case .setDetail(let state):
        newState.detail = state
      }

      return newState
    }

    // transform the state changes to mutations
    override func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
      let detail = detailReactor.state
        .map { Mutation.setDetail($0) }

      return
        mutation
        .merge(with: detail)
        .asObservable()
    }
  }

  @Test func parentFollowsTheChild() {
    let app = AppReactor()
    let states = Recorder<AppReactor.State>()
    let subscription = app.state.subscribe(onNext: { states.append($0) })

    app.detailReactor.action.onNext(.ageChanged(30))
    #expect(app.detailReactor.currentState.age == 30)
    #expect(app.currentState.detail.age == 30)  // synchronously, through the parent's mutations

    app.action.onNext(.nameChanged("Ada"))
    app.detailReactor.send(.ageChanged(31))
    #expect(app.currentState == AppReactor.State(name: "Ada", detail: .init(age: 31)))
    #expect(
      states.values.map { "\($0.name):\($0.detail.age)" } == [":0", ":30", "Ada:30", "Ada:31"]
    )
    subscription.dispose()
  }

  // A binding to the nested reactor, as SwiftReactor's
  // `@ActionBinding(\AppReactor.detailViewReactor, keyPath: \.age, action: …)`.
  @Test func bindingToTheChild() {
    let app = AppReactor()
    let age = ActionBinding(app.detailReactor, keyPath: \.age, action: { .ageChanged($0) })
    age.wrappedValue = 42
    #expect(age.wrappedValue == 42)
    #expect(app.currentState.detail.age == 42)
  }
}
