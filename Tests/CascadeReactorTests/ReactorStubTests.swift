import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// The stub, as the ReactorKit README's "View testing" uses it: a stubbed reactor records the
/// actions it is sent and shows whatever state the test sets; `mutate` and `reduce` do not run.
@Suite(.checksResources)
struct ReactorStubTests {
  final class MyReactor: Reactor {
    enum Action: Sendable, Equatable {
      case refresh
      case select(Int)
    }

    enum Mutation: Sendable {
      case setLoading(Bool)
      case setSelected(Int)
    }

    struct State: Sendable, Equatable {
      var isLoading = false
      var selected: Int?
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let mutates = Counter()
    let reduces = Counter()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      mutates.increment()
      switch action {
      case .refresh: return [.setLoading(true)]
      case .select(let index): return [.setSelected(index)]
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      reduces.increment()
      switch mutation {
      case .setLoading(let isLoading): state.isLoading = isLoading
      case .setSelected(let index): state.selected = index
      }
    }
  }

  /// A headless view of `MyReactor`: a refresh control, a list, an activity indicator.
  @MainActor
  final class MyView: View {
    let reactorBinding = ReactorBinding<MyReactor>()
    var disposeBag = DisposeBag()
    let refreshControl = PublishSubject<Void, Never>()
    let itemSelected = PublishSubject<Int, Never>()
    var isAnimating = false

    func bind(reactor: MyReactor) {
      refreshControl.map { MyReactor.Action.refresh }
        .bind(to: reactor.action)
        .disposed(by: disposeBag)
      itemSelected.map { MyReactor.Action.select($0) }
        .bind(to: reactor.action)
        .disposed(by: disposeBag)
      reactor.state.map(\.isLoading)
        .subscribe(onNext: { [weak self] isLoading in
          MainActor.assumeIsolated { self?.isAnimating = isLoading }
        })
        .disposed(by: disposeBag)
    }
  }

  // ReactorKit README, `testAction_refresh`.
  @MainActor
  @Test func actionRefresh() {
    // 1. prepare a stub reactor
    let reactor = MyReactor()
    reactor.isStubEnabled = true

    // 2. prepare a view with a stub reactor
    let view = MyView()
    view.reactor = reactor

    // 3. send an user interaction programmatically
    view.refreshControl.onNext(())

    // 4. assert actions
    #expect(reactor.stub.actions.last == .refresh)
    view.reactor = nil
  }

  // ReactorKit README, `testState_isLoading`.
  @MainActor
  @Test func stateIsLoading() {
    // 1. prepare a stub reactor
    let reactor = MyReactor()
    reactor.isStubEnabled = true

    // 2. prepare a view with a stub reactor
    let view = MyView()
    view.reactor = reactor

    // 3. set a stub state
    reactor.stub.state.value = MyReactor.State(isLoading: true)

    // 4. assert view properties
    #expect(view.isAnimating == true)
    view.reactor = nil
  }

  // While stubbed, actions are recorded in order, `mutate` and `reduce` never run, and the
  // stub's state drives both `state` and `currentState`.
  @Test func stubRecordsActionsAndDrivesTheState() {
    let reactor = MyReactor()
    reactor.isStubEnabled = true
    #expect(reactor.isStubEnabled)
    let states = Recorder<MyReactor.State>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })

    reactor.action.onNext(.refresh)
    reactor.send(.select(2))
    reactor.action.onNext(.select(3))
    #expect(reactor.stub.actions == [.refresh, .select(2), .select(3)])
    #expect(reactor.mutates.value == 0)
    #expect(reactor.reduces.value == 0)
    #expect(reactor.currentState == MyReactor.State())

    reactor.stub.state.value = MyReactor.State(isLoading: true, selected: 7)
    #expect(reactor.currentState == MyReactor.State(isLoading: true, selected: 7))
    reactor.stub.state.value = MyReactor.State(isLoading: true, selected: 7)  // equal: dropped
    reactor.stub.state.value = MyReactor.State(isLoading: false, selected: 7)
    #expect(
      states.values == [
        MyReactor.State(),
        MyReactor.State(isLoading: true, selected: 7),
        MyReactor.State(isLoading: false, selected: 7),
      ]
    )
    #expect(reactor.mutates.value == 0)
    #expect(reactor.reduces.value == 0)
    subscription.dispose()
  }

  // Turning the stub off again runs the reactor for real, from its own state: what was recorded
  // while stubbed never reached it.
  @Test func unstubbedReactorRunsForReal() {
    let reactor = MyReactor()
    reactor.isStubEnabled = true
    reactor.send(.select(1))
    reactor.stub.state.value = MyReactor.State(isLoading: true)
    reactor.isStubEnabled = false
    #expect(reactor.currentState == MyReactor.State())
    reactor.send(.select(5))
    #expect(reactor.currentState == MyReactor.State(selected: 5))
    #expect(reactor.mutates.value == 1)
    #expect(reactor.reduces.value == 1)
    #expect(reactor.stub.actions == [.select(1)])
  }
}
