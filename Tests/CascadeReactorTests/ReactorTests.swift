import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Testing

/// The `Reactor` protocol as the ReactorKit README uses it: Example 1 (the counter), "Reactor
/// testing" (`currentState` right after an action), `testIsLoading` on virtual time, and the state
/// stream's semantics.
@Suite(.checksResources)
struct ReactorTests {
  // ReactorKit README, Example 1, as a user types it: `Observable<Mutation>` becomes
  // `Mutations<Mutation>`, and there is one extra line, `let runtime = …`.
  final class CounterReactor: Reactor {
    enum Action: Sendable {
      case increment
      case decrement
    }

    enum Mutation: Sendable {
      case incrementCount
      case decrementCount
    }

    struct State: Sendable, Equatable {
      var count: Int = 0
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .increment:
        return .just(.incrementCount)
      case .decrement:
        return .just(.decrementCount)
      }
    }

    func reduce(state: State, mutation: Mutation) -> State {
      var newState = state
      switch mutation {
      case .incrementCount:
        newState.count += 1
      case .decrementCount:
        newState.count -= 1
      }
      return newState
    }
  }

  @Test func counterExample() {
    let reactor = CounterReactor()
    let counts = Recorder<Int>()
    let subscription = reactor.state.map(\.count).subscribe(onNext: { counts.append($0) })
    reactor.action.onNext(.increment)
    reactor.action.onNext(.increment)
    reactor.action.onNext(.decrement)
    #expect(reactor.currentState.count == 1)
    #expect(counts.values == [0, 1, 2, 1])
    subscription.dispose()
  }

  // ReactorKit README, "Reactor testing": a reactor with no side effects writes only `reduce`
  // (`Mutation` defaults to `Action`, and `mutate` to applying it), and `currentState` reads the
  // new state right after the action.
  final class BookmarkReactor: Reactor {
    enum Action: Sendable {
      case toggleBookmarked
    }

    struct State: Sendable, Equatable {
      var isBookmarked = false
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Action, State>()

    func reduce(into state: inout State, mutation: Action) {
      switch mutation {
      case .toggleBookmarked: state.isBookmarked.toggle()
      }
    }
  }

  @Test func isBookmarked() {
    let reactor = BookmarkReactor()
    reactor.action.onNext(.toggleBookmarked)
    #expect(reactor.currentState.isBookmarked == true)
    reactor.action.onNext(.toggleBookmarked)
    #expect(reactor.currentState.isBookmarked == false)
  }

  // ReactorKit README, `testIsLoading`: `.refresh` sets `isLoading` to true, then to false after
  // the (virtual) request. A hot stream feeds `reactor.action` at t=100; the state stream is
  // recorded from t=0 to t=1000.
  final class MyReactor: Reactor {
    enum Action: Sendable {
      case refresh
    }

    enum Mutation: Sendable {
      case setLoading(Bool)
      /// Sets the items and ends the loading.
      case setItems([String])
    }

    struct State: Sendable, Equatable {
      var isLoading = false
      var items: [String] = []
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let testScheduler: TestScheduler

    init(scheduler: TestScheduler) {
      testScheduler = scheduler
    }

    var scheduler: any Scheduler { testScheduler }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .refresh:
        let request = Observable<[String], any Error>.just(["a", "b"])
          .delay(.seconds(10), scheduler: testScheduler)
        return .stream(
          Observable<Mutation, any Error>.concat(
            .just(.setLoading(true)),
            request.map { Mutation.setItems($0) }.asObservable()
          )
        )
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      switch mutation {
      case .setLoading(let isLoading): state.isLoading = isLoading
      case .setItems(let items):
        state.items = items
        state.isLoading = false
      }
    }
  }

  @Test func isLoading() {
    // given
    let scheduler = TestScheduler()
    let reactor = MyReactor(scheduler: scheduler)
    let disposeBag = DisposeBag()

    // when (the hot stream is kept in a constant: CascadeTesting's scheduler holds it weakly)
    let actions = scheduler.createHotObservable([
      .next(.seconds(100), MyReactor.Action.refresh)  // send .refresh at 100 scheduler time
    ])
    actions
      .subscribe(reactor.action)
      .disposed(by: disposeBag)

    // then
    let response = scheduler.start(created: .zero, subscribed: .zero, disposed: .seconds(1000)) {
      reactor.state.map(\.isLoading)
    }
    #expect(
      response.events.map(\.value.element) == [
        false,  // initial state
        true,  // just after .refresh
        false,  // after refreshing
      ]
    )
    #expect(response.events.map(\.time) == [.zero, .seconds(100), .seconds(110)])
    #expect(reactor.currentState.items == ["a", "b"])
    disposeBag.dispose()
  }

  // The state stream replays the current state to a new subscriber, then every new one.
  @Test func stateReplaysTheCurrentState() {
    let reactor = CounterReactor()
    reactor.send(.increment)
    reactor.send(.increment)
    let counts = Recorder<Int>()
    let subscription = reactor.state.map(\.count).subscribe(onNext: { counts.append($0) })
    reactor.send(.decrement)
    #expect(counts.values == [2, 1])
    subscription.dispose()
  }

  // Where `State` is Equatable, consecutive equal states are dropped; where it is not, every
  // mutation's state is emitted, equal or not.
  final class LabelReactor<State: Sendable>: Reactor {
    typealias Action = State

    let initialState: State
    let runtime = ReactorRuntime<State, State, State>()

    init(_ initialState: State) {
      self.initialState = initialState
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(state: State, mutation: State) -> State { mutation }
  }

  struct Plain: Sendable {
    var text: String
  }

  @Test func equatableStatesAreDistinctOthersAreNot() {
    let equatable = LabelReactor("a")
    let plain = LabelReactor(Plain(text: "a"))
    let seen = Recorder<String>()
    let seenPlain = Recorder<String>()
    let subscriptions = [
      equatable.state.subscribe(onNext: { seen.append($0) }),
      plain.state.subscribe(onNext: { seenPlain.append($0.text) }),
    ]
    for text in ["a", "b", "b", "a"] {
      equatable.send(text)
      plain.send(Plain(text: text))
    }
    #expect(seen.values == ["a", "b", "a"])
    #expect(seenPlain.values == ["a", "a", "b", "b", "a"])
    for subscription in subscriptions { subscription.dispose() }
  }

  // The default scheduler is the main queue: an action sent on the main actor is delivered there
  // synchronously, even while other work of the shared `MainScheduler.instance` waits on the main
  // queue (the reactor delivers through a main scheduler of its own); one sent from another
  // thread arrives on the main actor later.
  final class MainCounter: Reactor {
    typealias Action = Int

    let initialState = 0
    let runtime = ReactorRuntime<Int, Int, Int>()

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  @MainActor
  @Test func stateIsDeliveredOnTheMainQueueByDefault() async {
    let otherWorkRan = Recorder<Bool>()
    // Runs at once; what it schedules waits on the main queue until this test suspends.
    MainScheduler.instance.schedule {
      MainScheduler.instance.schedule { otherWorkRan.append(true) }
    }
    let reactor = MainCounter()
    let seen = Recorder<Int>()
    let onMain = Recorder<Bool>()
    let subscription = reactor.state.subscribe(onNext: { value in
      seen.append(value)
      onMain.append(MainScheduler.isOnMainQueue)
    })
    reactor.send(1)
    #expect(seen.values == [0, 1])
    #expect(otherWorkRan.values.isEmpty)
    DispatchQueue.global().async { reactor.send(10) }
    // `onMain` is appended after `seen`, in the same delivery: its third value means the third
    // state was delivered (the main actor is free meanwhile, so the main queue can deliver it).
    #expect(await onMain.wait(forCount: 3))
    #expect(seen.values == [0, 1, 11])
    #expect(onMain.values == [true, true, true])
    #expect(await otherWorkRan.wait(forCount: 1))
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
    /// Fired by the operation once it runs, inside its cancellation handler.
    let started: CascadeTestSupport.Signal
    var scheduler: any Scheduler { ImmediateScheduler.instance }

    init(cancelled: Counter, started: CascadeTestSupport.Signal) {
      self.cancelled = cancelled
      self.started = started
    }

    func mutate(action: Action) -> Mutations<Int> {
      let cancelled = cancelled
      let started = started
      return .run { _ in
        await withTaskCancellationHandler {
          started.fire()
          // The work: it runs until cancelled.
          try? await suspendUntilCancelled()
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
    let started = Signal()
    var reactor: Looper? = Looper(cancelled: cancelled, started: started)
    weak let weakReactor = reactor
    reactor?.send(.start)
    #expect(await started.wait())
    #expect(reactor?.effectsInFlight == 1)
    reactor = nil
    #expect(weakReactor == nil)
    #expect(await cancelled.wait { $0 == 1 })
  }
}
