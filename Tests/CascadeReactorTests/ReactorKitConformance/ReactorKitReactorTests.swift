import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactorKit's reactor cases (ReactorKit/ReactorKit, Tests/ReactorKitTests/ReactorTests.swift),
// re-expressed against Cascade's `Reactor`, with RxTest's virtual time replaced by Cascade's
// `TestScheduler` (times in seconds instead of ticks). The reactors are in ReactorKitFakes.swift.
//
// Cascade's `HotObservable` follows the stream grammar: a subscriber gets nothing after the
// first terminal event, where RxTest's goes on playing. The peer's cases that play actions after
// a source's `error` or `completed` play those actions from a further source bound to the same
// input, which keeps what they check: the reactor goes on after a source of actions ended.
@Suite(.checksResources)
struct ReactorKitReactorTests {
  let scheduler = TestScheduler()

  /// Every hook runs once per action, in order: action transform, mutate, mutation transform,
  /// reduce, state transform; the initial state goes through the state transform too.
  @Test func testEachMethodsAreInvoked() {
    let reactor = ReactorKitTrailReactor()
    let disposeBag = DisposeBag()
    scheduler.createHotObservable([.next(.seconds(100), ["action"])])
      .bind(to: reactor.action)
      .disposed(by: disposeBag)

    let observer = scheduler.start(created: .zero, subscribed: .zero) { reactor.state }
    #expect(observer.events.count == 2)
    #expect(observer.values.first == ["transformedState"])
    #expect(
      observer.values.dropFirst().first == [
        "action", "transformedAction", "mutation", "transformedMutation", "reduce",
        "transformedState",
      ]
    )
  }

  final class AppendingReactor: Reactor {
    enum Action: Sendable {
      case append([String])
    }

    enum Mutation: Sendable {
      case setCharacters([String])
    }

    struct State: Sendable, Equatable {
      var characters: [String] = []
    }

    let initialState = State()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    // One stream per character, concatenated; each builds its mutation from `currentState` when
    // it is subscribed, so it sees the previous character only if that was reduced already.
    func mutate(action: Action) -> Observable<Mutation, Never> {
      switch action {
      case .append(let characters):
        let sources = characters.map { character in
          Observable<Mutation, Never>.create { [weak self] observer in
            if let self {
              observer.onNext(.setCharacters(currentState.characters + [character]))
            }
            observer.onCompleted()
            return Disposables.empty
          }
        }
        return .concat(sources)
      }
    }

    func reduce(state: State, mutation: Mutation) -> State {
      var newState = state
      switch mutation {
      case .setCharacters(let characters):
        newState.characters = characters
      }
      return newState
    }
  }

  /// Each mutation is reduced before the next part of the same mutation stream is subscribed:
  /// a concatenation of deferred streams reading `currentState` sees every earlier mutation.
  @Test func testReduceIsExecutedRightAfterMutation() {
    let reactor = AppendingReactor()
    reactor.action.onNext(.append(["a", "b"]))
    reactor.action.onNext(.append(["c"]))
    reactor.action.onNext(.append(["d", "e", "f"]))
    #expect(reactor.currentState.characters == ["a", "b", "c", "d", "e", "f"])
  }

  /// A subscriber that arrives after some actions gets the current state, and only it.
  @Test func testStateReplayCurrentState() {
    let reactor = ReactorKitCounterReactor()
    let subscription = reactor.state.subscribe()  // state: 0
    reactor.action.onNext(())  // state: 1
    reactor.action.onNext(())  // state: 2
    subscription.dispose()

    let observer = scheduler.start(created: .zero, subscribed: .zero) { reactor.state }
    #expect(observer.values == [2])
  }

  /// `currentState` reads the state reduced from an action right after the action is sent, once
  /// the state stream exists.
  @Test func testCurrentState() {
    let reactor = ReactorKitTrailReactor()
    _ = reactor.state
    reactor.action.onNext(["action"])
    // Deliberate difference: ReactorKit's `currentState` is the last state out of
    // `transform(state:)` (it ends in "transformedState"); Cascade's is the reactor's own reduced
    // state, which `transform(state:)` does not apply to, so that it is never stale
    // (CascadeReactor.docc, "Threads and order").
    #expect(
      reactor.currentState == [
        "action", "transformedAction", "mutation", "transformedMutation", "reduce",
      ]
    )
  }

  /// Sending an action before anything read the state starts the reactor: the action is
  /// processed and `currentState` shows it.
  @Test func testCurrentState_stateIsCreatedWhenAccessAction() {
    let reactor = ReactorKitTrailReactor()
    reactor.action.onNext(["action"])
    // Deliberate difference: as in testCurrentState, `transform(state:)` does not apply to
    // Cascade's `currentState` (ReactorKit's ends in "transformedState").
    #expect(
      reactor.currentState == [
        "action", "transformedAction", "mutation", "transformedMutation", "reduce",
      ]
    )
  }

  /// A source of actions that fails does not end the reactor: actions from it before the
  /// failure, and from other sources after, are all processed.
  @Test func testStreamIgnoresErrorFromAction() {
    let reactor = ReactorKitCounterReactor()
    let disposeBag = DisposeBag()
    let action1: HotObservable<Void, TestError> = scheduler.createHotObservable([
      .next(.seconds(100), ()), .next(.seconds(200), ()), .error(.seconds(300), TestError("a")),
    ])
    let action1AfterItsError: HotObservable<Void, TestError> = scheduler.createHotObservable([
      .next(.seconds(400), ())
    ])
    let action2: HotObservable<Void, TestError> = scheduler.createHotObservable([
      .error(.seconds(300), TestError("b"))
    ])
    let action2AfterItsError: HotObservable<Void, TestError> = scheduler.createHotObservable([
      .next(.seconds(500), ()), .next(.seconds(600), ()),
    ])
    // Deliberate difference: ReactorKit's `ActionSubject` accepts a failing source and drops
    // its error; Cascade's `ActionInput` has `Failure == Never`, so a failing source is bound by
    // its subscriber, which handles the failure (here: ignores it); typed failures make an error
    // unable to reach the reactor.
    for source in [action1, action1AfterItsError, action2, action2AfterItsError] {
      source.subscribe(onNext: { reactor.action.onNext($0) }).disposed(by: disposeBag)
    }

    let observer = scheduler.start(created: .zero, subscribed: .zero) { reactor.state }
    observer.assertEvents([
      .next(.zero, 0), .next(.seconds(100), 1), .next(.seconds(200), 2),
      .next(.seconds(400), 3), .next(.seconds(500), 4), .next(.seconds(600), 5),
    ])
  }

  /// A mutation stream that fails does not end the reactor: its mutation before the failure is
  /// applied, and later actions go on.
  @Test func testStreamIgnoresErrorFromMutate() {
    let reactor = ReactorKitCounterReactor()
    let disposeBag = DisposeBag()
    reactor.stateForTriggerError = 2
    scheduler.createHotObservable([
      .next(.seconds(100), ()), .next(.seconds(200), ()),
      .next(.seconds(300), ()),  // this action's mutation stream fails after its mutation
      .next(.seconds(400), ()), .next(.seconds(500), ()),
    ])
    .bind(to: reactor.action)
    .disposed(by: disposeBag)

    let observer = scheduler.start(created: .zero, subscribed: .zero) { reactor.state }
    #expect(observer.values == [0, 1, 2, 3, 4, 5])
    // Deliberate difference: ReactorKit swallows the failure silently; Cascade reports it to the
    // reactor's `diagnostics` and goes on (CascadeReactor.docc, "Coming from ReactorKit").
    #expect(reactor.diagnosticsReceived.values.count == 1)
  }

  /// A source of actions that completes does not end the reactor: actions from other sources
  /// after it are processed.
  @Test func testStreamIgnoresCompletedFromAction() {
    let reactor = ReactorKitCounterReactor()
    let disposeBag = DisposeBag()
    let action1 = scheduler.createHotObservable([
      .next(.seconds(100), ()), .next(.seconds(200), ()), .completed(.seconds(300)),
    ])
    let action1AfterItsCompletion = scheduler.createHotObservable([.next(.seconds(400), ())])
    let action2: HotObservable<Void, Never> = scheduler.createHotObservable([
      .completed(.seconds(300))
    ])
    let action2AfterItsCompletion = scheduler.createHotObservable([
      .next(.seconds(500), ()), .next(.seconds(600), ()),
    ])
    for source in [action1, action1AfterItsCompletion, action2, action2AfterItsCompletion] {
      source.bind(to: reactor.action).disposed(by: disposeBag)
    }

    let observer = scheduler.start(created: .zero, subscribed: .zero) { reactor.state }
    observer.assertEvents([
      .next(.zero, 0), .next(.seconds(100), 1), .next(.seconds(200), 2),
      .next(.seconds(400), 3), .next(.seconds(500), 4), .next(.seconds(600), 5),
    ])
  }

  /// A mutation stream that completes explicitly ends only that action's work: later actions
  /// go on.
  @Test func testStreamIgnoresCompletedFromMutate() {
    let reactor = ReactorKitCounterReactor()
    let disposeBag = DisposeBag()
    reactor.stateForTriggerCompleted = 2
    scheduler.createHotObservable([
      .next(.seconds(100), ()), .next(.seconds(200), ()),
      .next(.seconds(300), ()),  // this action's mutation stream completes after its mutation
      .next(.seconds(400), ()), .next(.seconds(500), ()),
    ])
    .bind(to: reactor.action)
    .disposed(by: disposeBag)

    let observer = scheduler.start(created: .zero, subscribed: .zero) { reactor.state }
    #expect(observer.values == [0, 1, 2, 3, 4, 5])
    #expect(reactor.diagnosticsReceived.values.isEmpty)
  }

  /// A long-running mutation stream (a stopwatch's ticks) ends when a later action says so, and
  /// a new one starts with the next start.
  @Test func testCancel() {
    let reactor = ReactorKitStopwatchReactor(scheduler: scheduler)
    let disposeBag = DisposeBag()
    scheduler.createHotObservable([
      .next(.seconds(1), .start), .next(.seconds(5), .stop),
      .next(.seconds(6), .start), .next(.seconds(9), .stop),
    ])
    .bind(to: reactor.action)
    .disposed(by: disposeBag)

    let observer = scheduler.start(created: .zero, subscribed: .zero) { reactor.state }
    // 0; start at 1; ticks at 2, 3, 4; stop at 5; start at 6; ticks at 7, 8; stop at 9.
    #expect(observer.values == [0, 1, 2, 3, 4, 5])
  }

  /// While stubbed, the reactor's action input and state stream are the stub's.
  @Test func testStub_actionAndStateMemoryAddress() {
    let reactor = ReactorKitTrailReactor()
    reactor.isStubEnabled = true
    // Deliberate difference: ReactorKit hands out the stub's own subject and observable, so the
    // peer compares identities; Cascade's `ActionInput` and `Observable` are values, with no
    // identity, so this checks where they lead: the action input records into the stub, and the
    // state stream is the stub's state.
    reactor.action.onNext(["A"])
    #expect(reactor.stub.actions == [["A"]])
    let states = Recorder<[String]>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    reactor.stub.state.value = ["stubbed"]
    #expect(states.values == [[], ["stubbed"]])
    subscription.dispose()
  }

  /// A stubbed reactor records the actions it is sent, in order.
  @Test func testStub_actions() {
    let reactor = ReactorKitStopwatchReactor(scheduler: scheduler)
    reactor.isStubEnabled = true
    reactor.action.onNext(.start)
    reactor.action.onNext(.start)
    reactor.action.onNext(.stop)
    #expect(reactor.stub.actions == [.start, .start, .stop])
  }

  /// A stubbed reactor's `currentState` is whatever the stub's state was set to.
  @Test func testStub_state() {
    let reactor = ReactorKitStopwatchReactor(scheduler: scheduler)
    reactor.isStubEnabled = true
    reactor.stub.state.value = 0
    #expect(reactor.currentState == 0)
    reactor.stub.state.value = 1
    #expect(reactor.currentState == 1)
    reactor.stub.state.value = -10
    #expect(reactor.currentState == -10)
    reactor.stub.state.value = 30
    #expect(reactor.currentState == 30)
  }

  /// A stubbed reactor does not process the actions it is sent: the state stays as it was.
  @Test func testStub_ignoreAction() {
    let reactor = ReactorKitTrailReactor()
    reactor.isStubEnabled = true
    reactor.action.onNext(["A"])
    #expect(reactor.currentState == [])
  }

  /// A subclass of a generic reactor class keeps one machinery: reading the state does not
  /// make a second one (ReactorKit #30, where the action subject was made twice).
  @Test func testGenericSubclassing() {
    // Safety: a non-final class cannot be checked `Sendable` (the peer's case subclasses it);
    // it stores only immutable `let`s of `Sendable` types, and its machinery is the runtime's.
    class ParentReactor<T>: Reactor, @unchecked Sendable {
      enum Action {}
      typealias Mutation = Void
      typealias State = Void
      let initialState: State = ()
    }

    // Safety: adds no stored property to its `@unchecked Sendable` parent.
    final class ChildReactor: ParentReactor<String>, @unchecked Sendable {}

    let reactor = ChildReactor()
    // ReactorKit compares the action subject's address; Cascade's action input is a value, so
    // this compares the runtime that holds the reactor's machinery.
    let address1 = ObjectIdentifier(reactor.runtime)
    _ = reactor.state
    let address2 = ObjectIdentifier(reactor.runtime)
    #expect(address1 == address2)
  }

  /// A subclass of a generic reactor class processes an action sent before anything read its
  /// state.
  @Test func testGenericSubclassing_stateIsCreatedWhenAccessAction() {
    // Safety: a non-final class cannot be checked `Sendable` (the peer's case subclasses it);
    // it stores only immutable `let`s of `Sendable` types, and its machinery is the runtime's.
    class ParentReactor<T>: Reactor, @unchecked Sendable {
      enum Action {
        case foo
      }

      typealias Mutation = Void
      typealias State = Int
      let initialState: State = 0

      func mutate(action: Action) -> Observable<Mutation, Never> {
        .just(())
      }

      func reduce(state: State, mutation: Mutation) -> State {
        state + 1
      }
    }

    // Safety: adds no stored property to its `@unchecked Sendable` parent.
    final class ChildReactor: ParentReactor<String>, @unchecked Sendable {}

    let reactor = ChildReactor()
    #expect(reactor.currentState == 0)
    reactor.action.onNext(.foo)
    #expect(reactor.currentState == 1)
  }

  /// Nothing keeps a reactor alive once its user lets go of it, not even its own streams.
  @Test func testDispose() {
    weak var weakReactor: ReactorKitTrailReactor?
    weak var weakRuntime: ReactorRuntime<[String], [String], [String]>?

    do {
      let reactor = ReactorKitTrailReactor()
      weakReactor = reactor
      weakRuntime = reactor.runtime
      _ = reactor.state
      reactor.action.onNext(["action"])
    }

    #expect(weakReactor == nil)
    // ReactorKit checks its action subject and state observable; Cascade's are values, which
    // lead to the reactor's runtime, checked instead.
    // Deliberate difference: ReactorKit's streams go with the reactor (associated objects);
    // the runtime of a Cascade reactor that declares no `runtime` goes when the shared table is
    // swept, since Swift on Linux has no associated objects (ReactorRuntimes' documentation).
    _ = ReactorRuntimes.purgeReleased()
    #expect(weakRuntime == nil)
  }
}
