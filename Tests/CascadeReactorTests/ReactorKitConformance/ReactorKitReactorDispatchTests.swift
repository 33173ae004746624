import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactorKit's dispatch cases (ReactorKit/ReactorKit,
// Tests/ReactorKitTests/ReactorDispatchTests.swift): the reactor's machinery is made once when
// many threads reach for it at once, and an action sent from a background thread is processed.
// The threads are CascadeTestSupport's (`runOnThreads`, `onOwnThread`), awaited without blocking
// the cooperative pool.

@Suite(.checksResources)
struct ReactorKitReactorDispatchTests {
  final class PassThroughReactor: Reactor {
    typealias Action = Never
    typealias Mutation = Never
    typealias State = Int

    let initialState: State = 0
    /// How many times the reactor was built (its `transform(action:)` runs once per build).
    let builds = Counter()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func transform(action: Observable<Action, Never>) -> Observable<Action, Never> {
      builds.increment()
      return action
    }
  }

  /// A hundred threads reading the state stream of a new reactor at once all get the stream of
  /// one machinery, made once.
  @Test func testStateStreamIsCreatedOnce() async {
    let reactor = PassThroughReactor()
    let states = Recorder<Observable<Int, Never>>()
    let runtimes = Recorder<ObjectIdentifier>()

    let finished = await runOnThreads(100) { _ in
      runtimes.append(ObjectIdentifier(reactor.runtime))
      states.append(reactor.state)
    }
    #expect(finished)

    // ReactorKit compares the state observables' identities; Cascade's `Observable` is a value,
    // so this checks that one runtime was made and the reactor was built once, and that every
    // stream replays that reactor's state.
    #expect(states.values.count == 100)
    #expect(Set(runtimes.values).count == 1)
    #expect(reactor.builds.value == 1)
    let firstValues = Recorder<Int>()
    for state in states.values {
      state.take(1).subscribe(onNext: { firstValues.append($0) }).dispose()
    }
    #expect(firstValues.values == Array(repeating: 0, count: 100))
  }

  final class CountingReactor: Reactor {
    typealias Action = Void

    struct State: Sendable {
      var count = 0
    }

    let initialState = State()

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(state: State, mutation: Void) -> State {
      var newState = state
      newState.count += 1
      return newState
    }
  }

  /// An action sent from a background thread is processed: the state stream emits the new state
  /// and `currentState` shows it.
  @Test func testActionDispatchContractCheckIsNonFatal() async {
    let reactor = CountingReactor()
    let disposeBag = DisposeBag()
    let counts = Recorder<Int>()

    reactor.state
      .skip(1)  // the initial state
      .subscribe(onNext: { counts.append($0.count) })
      .disposed(by: disposeBag)

    await onOwnThread { reactor.action.onNext(()) }

    #expect(await counts.wait(forCount: 1))
    #expect(counts.values == [1])
    #expect(reactor.currentState.count == 1)
  }
}
