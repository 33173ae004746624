import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// `BaseReactor` and the SwiftReactor README: its `ExampleReactor` (a subclass) and its
/// `CountingReactor` (a class of its own conforming to `Reactor`).
@Suite(.checksResources)
struct BaseReactorTests {
  enum Color: Sendable, Equatable {
    case white
    case red
  }

  // SwiftReactor README, "Reactor": the example, ported. The delay runs on a `TestScheduler`
  // instead of `DispatchQueue.global()`, so the revert is seen on virtual time.
  final class ExampleReactor: BaseReactor<
    ExampleReactor.Action, ExampleReactor.Mutation, ExampleReactor.State
  >, @unchecked Sendable
  {
    // Safety: no mutable state of its own; the reactor's state lives in its runtime.
    enum Action: Sendable {
      case enterText(String)
      case setSwitch(Bool)
      case setSwitchAsync(Bool)
      case colorChangePressed(Color)
    }

    enum Mutation: Sendable {
      case setText(String)
      case setSwitch(Bool)
      case setBackgroundColor(Color)
    }

    struct State: Sendable, Equatable {
      var text = "initial text"
      var switchValue = false
      var backgroundColor = Color.white
    }

    let clock: TestScheduler

    init(clock: TestScheduler) {
      self.clock = clock
      super.init(initialState: State())
    }

    override var scheduler: any Scheduler { ImmediateScheduler.instance }

    override func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .enterText(let text):
        return [.setText(text)]  // is equal to: Mutations(sync: .setText(text))
      case .setSwitch(let value):
        return [.setSwitch(value)]  // is equal to: Mutations(sync: .setSwitch(value))
      case .setSwitchAsync(let value):
        let mutation = Observable.just(Mutation.setSwitch(!value))
          .delay(.seconds(2), scheduler: clock)

        return Mutations(sync: .setSwitch(value), async: mutation)
      case .colorChangePressed(let color):
        // is equal to: Mutations(sync: .setBackgroundColor(color))
        return [.setBackgroundColor(color)]
      }
    }

    override func reduce(state: State, mutation: Mutation) -> State {
      var newState = state

      switch mutation {
      case .setText(let text):
        newState.text = text
      case .setSwitch(let value):
        newState.switchValue = value
      case .setBackgroundColor(let color):
        newState.backgroundColor = color
      }

      return newState
    }

    override func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
      mutation
        .startWith(.setText("hello"))
        .asObservable()
    }
  }

  // The mutation `transform(mutation:)` prepends is applied when the reactor starts (on first
  // use: the first action, state subscription or `currentState` read), as SwiftReactor applies it
  // in `init`: the first state anyone sees already says "hello"; `initialState` does not.
  @Test func prependedMutationIsTheFirstStateSeen() {
    let reactor = ExampleReactor(clock: TestScheduler())
    #expect(reactor.initialState.text == "initial text")
    let texts = Recorder<String>()
    let subscription = reactor.state.map(\.text).subscribe(onNext: { texts.append($0) })
    #expect(texts.values == ["hello"])
    #expect(reactor.currentState.text == "hello")
    subscription.dispose()
  }

  @Test func enterText() {
    let reactor = ExampleReactor(clock: TestScheduler())
    reactor.action.onNext(.enterText("typed"))
    #expect(reactor.currentState.text == "typed")
  }

  @Test func setSwitch() {
    let reactor = ExampleReactor(clock: TestScheduler())
    reactor.send(.setSwitch(true))
    #expect(reactor.currentState.switchValue == true)
    reactor.send(.setSwitch(false))
    #expect(reactor.currentState.switchValue == false)
  }

  // The synchronous mutation sets the switch at once; the asynchronous one reverts it 2 s later.
  @Test func setSwitchAsyncRevertsAfterTwoSeconds() {
    let clock = TestScheduler()
    let reactor = ExampleReactor(clock: clock)
    let switchValues = Recorder<Bool>()
    let subscription = reactor.state.map(\.switchValue).subscribe(onNext: {
      switchValues.append($0)
    })
    reactor.send(.setSwitchAsync(true))
    #expect(reactor.currentState.switchValue == true)
    clock.advance(by: .milliseconds(1_999))
    #expect(reactor.currentState.switchValue == true)
    clock.advance(by: .milliseconds(1))
    #expect(reactor.currentState.switchValue == false)
    #expect(switchValues.values == [false, true, false])
    subscription.dispose()
  }

  @Test func colorChangePressed() {
    let reactor = ExampleReactor(clock: TestScheduler())
    reactor.send(.colorChangePressed(.red))
    #expect(reactor.currentState.backgroundColor == .red)
    #expect(
      reactor.currentState
        == ExampleReactor.State(text: "hello", switchValue: false, backgroundColor: .red)
    )
  }

  // SwiftReactor README, "Use the Reactor protocol": a class of its own; `action`, `mutation`,
  // `@Published state`, `cancellables` and `createStateStream()` are all replaced by one line,
  // `let runtime = …`.
  final class CountingReactor: Reactor {
    enum Action: Sendable {
      case countUp
      case countUpAsync
      case countUpLater
    }

    enum Mutation: Sendable {
      case countUp
    }

    struct State: Sendable, Equatable {
      var currentCount: Int = 0
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .countUp:
        return [.countUp]
      case .countUpAsync:
        return Mutations(async: .stream(Observable.just(.countUp)))
      case .countUpLater:
        return .run { send in send(.countUp) }
      }
    }

    func reduce(state: State, mutation: Mutation) -> State {
      var newState = state

      switch mutation {
      case .countUp:
        newState.currentCount += 1
      }

      return newState
    }
  }

  @Test func countingReactor() async {
    let reactor = CountingReactor()
    reactor.send(.countUp)
    #expect(reactor.currentState.currentCount == 1)
    reactor.send(.countUpAsync)  // a stream that emits at once: applied before `send` returns
    #expect(reactor.currentState.currentCount == 2)
    reactor.send(.countUpLater)  // an `async` operation: applied later
    await reactor.finish()
    #expect(reactor.currentState.currentCount == 3)
    #expect(reactor.effectsInFlight == 0)
  }

  // With `Mutation == Action`, the default `mutate` applies the action; overriding only
  // `reduce(into:)` is enough.
  final class Adder: BaseReactor<Int, Int, Int>, @unchecked Sendable {
    // Safety: no mutable state of its own; the reactor's state lives in its runtime.
    init() { super.init(initialState: 0) }

    override var scheduler: any Scheduler { ImmediateScheduler.instance }

    override func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  @Test func defaultMutateAppliesTheAction() {
    let reactor = Adder()
    reactor.send(2)
    reactor.send(3)
    #expect(reactor.currentState == 5)
  }

  // Where `Action` is not `Mutation`, the default `mutate` does nothing.
  final class Ignorer: BaseReactor<String, Int, Int>, @unchecked Sendable {
    // Safety: no mutable state of its own; the reactor's state lives in its runtime.
    init() { super.init(initialState: 0) }

    override var scheduler: any Scheduler { ImmediateScheduler.instance }

    override func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  @Test func defaultMutateIgnoresOtherActions() {
    let reactor = Ignorer()
    reactor.send("1")
    #expect(reactor.currentState == 0)
  }
}
