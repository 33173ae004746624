import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// `mutate(action:)` returning an `Observable`, as ReactorKit's does, instead of `Mutations`.
@Suite(.checksResources)
struct MutateObservableTests {
  /// ReactorKit's form: `Observable<Mutation, Never>`, no `runtime`.
  final class CounterReactor: Reactor {
    enum Action: Sendable {
      case increment
      case twice
      case none
      case later
    }

    enum Mutation: Sendable {
      case add(Int)
    }

    let initialState = 0
    let clock: TestScheduler

    init(clock: TestScheduler = TestScheduler()) {
      self.clock = clock
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Action) -> Observable<Mutation, Never> {
      switch action {
      case .increment: .just(.add(1))
      case .twice: .concat([.just(.add(1)), .just(.add(10))])
      case .none: .empty()
      case .later: Observable.just(.add(100)).delay(.seconds(1), scheduler: clock)
      }
    }

    func reduce(state: Int, mutation: Mutation) -> Int {
      switch mutation {
      case .add(let amount): state + amount
      }
    }
  }

  /// `Observable<Mutation, any Error>`, with its failures going to `diagnostics`.
  final class FailingReactor: Reactor {
    typealias Action = Bool

    let initialState = 0
    let runtime = ReactorRuntime<Bool, Int, Int>()
    let received = Recorder<String>()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? {
      { [received] diagnostic in received.append(diagnostic.description) }
    }

    func mutate(action: Bool) -> Observable<Int, any Error> {
      action ? .error(TestError("stream boom")) : .just(1)
    }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  /// `Mutation == Action`, returning a stream: the reactor's own `mutate` wins over the default.
  final class EchoReactor: Reactor {
    typealias Action = Int

    let initialState = 0

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func mutate(action: Int) -> Observable<Int, Never> { .just(action * 2) }

    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  @Test func mutationsAStreamEmitsAtOnceAreAppliedBeforeSendReturns() {
    let reactor = CounterReactor()
    let states = Recorder<Int>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    reactor.send(.increment)
    #expect(reactor.currentState == 1)
    reactor.action.onNext(.twice)
    #expect(reactor.currentState == 12)
    reactor.send(.none)
    #expect(reactor.currentState == 12)
    #expect(states.values == [0, 1, 2, 12])
    subscription.dispose()
  }

  @Test func laterMutationsArriveLikeAStreamMutation() async {
    let clock = TestScheduler()
    let reactor = CounterReactor(clock: clock)
    reactor.send(.later)
    #expect(reactor.currentState == 0)
    #expect(reactor.effectsInFlight == 1)
    await clock.advance(by: .seconds(1))
    await reactor.finish()
    #expect(reactor.currentState == 100)
  }

  @Test func aFailingStreamIsReportedAndTheReactorGoesOn() async {
    let reactor = FailingReactor()
    reactor.send(false)
    reactor.send(true)
    reactor.send(false)
    await reactor.finish()
    #expect(reactor.currentState == 2)
    #expect(reactor.received.values.count == 1)
    #expect(reactor.received.values.first?.contains("stream boom") == true)
  }

  @Test func aReactorWhoseMutationIsItsActionCanReturnAStream() {
    let reactor = EchoReactor()
    reactor.send(1)
    reactor.send(2)
    #expect(reactor.currentState == 6)
  }

  @Test func aStreamOfPlainValuesConvertsToSynchronousMutations() {
    let one = Observable<Int, Never>.just(1).asMutations()
    #expect(one.sync == [1])
    #expect(one.async == nil)
    let several = Observable<Int, Never>.concat(.just(1), .empty(), .of(2, 3)).asMutations()
    #expect(several.sync == [1, 2, 3])
    #expect(several.async == nil)
    let none = Observable<Int, Never>.empty().asMutations()
    #expect(none.sync.isEmpty)
    #expect(none.async == nil)
    let same = Mutations<Int>.just(1).asMutations()
    #expect(same.sync == [1])
  }

  @Test func anyOtherStreamConvertsToAsynchronousMutations() {
    let created = Observable<Int, Never>.create { observer in
      observer.onNext(1)
      return Disposables.empty
    }
    let mapped = Observable<Int, Never>.just(1).map { $0 + 1 }.asObservable()
    let concatenated = Observable<Int, Never>.concat(.just(1), created)
    for stream in [created, mapped, concatenated] {
      let mutations = stream.asMutations()
      #expect(mutations.sync.isEmpty)
      #expect(mutations.async != nil)
    }
  }
}
