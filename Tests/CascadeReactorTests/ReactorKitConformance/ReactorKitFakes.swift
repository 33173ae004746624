import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport

// Reactors shared by the ReactorKit conformance suites (ReactorKit/ReactorKit,
// Tests/ReactorKitTests), written in ReactorKit's form: no `runtime` property (the runtime comes
// from the shared table, as ReactorKit keeps its streams in associated objects) and `mutate`
// returning an `Observable`. Each delivers its states on the reducing thread, where ReactorKit's
// deliver on the main scheduler, so that tests read them synchronously or on virtual time.

/// A reactor whose state is the trail of every hook it went through: each hook appends its name
/// to the array it passes on, so the state shows which hooks ran, and in which order.
final class ReactorKitTrailReactor: Reactor {
  typealias Action = [String]
  typealias Mutation = [String]
  typealias State = [String]

  let initialState: State = []

  var scheduler: any Scheduler { ImmediateScheduler.instance }

  func transform(action: Observable<Action, Never>) -> Observable<Action, Never> {
    action.map { $0 + ["transformedAction"] }.asObservable()
  }

  func mutate(action: Action) -> Observable<Mutation, Never> {
    .just(action + ["mutation"])
  }

  func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
    mutation.map { $0 + ["transformedMutation"] }.asObservable()
  }

  func reduce(state: State, mutation: Mutation) -> State {
    state + mutation + ["reduce"]
  }

  func transform(state: Observable<State, Never>) -> Observable<State, Never> {
    state.map { $0 + ["transformedState"] }.asObservable()
  }
}

/// A counter: every action adds one.
///
/// Its `mutate` can be told to end the mutation stream with a failure, or to complete it, when
/// the count is a given value.
final class ReactorKitCounterReactor: Reactor {
  typealias Action = Void
  typealias Mutation = Void
  typealias State = Int

  let initialState = 0
  private let failWhenAt = LockedBox<Int?>(nil)
  private let completeWhenAt = LockedBox<Int?>(nil)
  /// What the reactor reported (a failed mutation stream, in particular).
  let diagnosticsReceived = Recorder<String>()

  var scheduler: any Scheduler { ImmediateScheduler.instance }

  var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? {
    { [diagnosticsReceived] in diagnosticsReceived.append($0.description) }
  }

  /// The count at which `mutate` ends its stream with a failure after the mutation.
  var stateForTriggerError: Int? {
    get { failWhenAt.value }
    set { failWhenAt.value = newValue }
  }

  /// The count at which `mutate` completes its stream explicitly after the mutation.
  var stateForTriggerCompleted: Int? {
    get { completeWhenAt.value }
    set { completeWhenAt.value = newValue }
  }

  func mutate(action: Void) -> Observable<Void, any Error> {
    if currentState == stateForTriggerError {
      return .concat([.just(action), .error(TestError("mutate failed"))])
    }
    if currentState == stateForTriggerCompleted {
      return .concat([.just(action), .empty()])
    }
    return .just(action)
  }

  func reduce(state: State, mutation: Mutation) -> State {
    state + 1
  }
}

/// A stopwatch: `.start` adds one every second on the given scheduler until the next `.stop`.
final class ReactorKitStopwatchReactor: Reactor {
  enum Action: Sendable, Equatable {
    case start
    case stop
  }

  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  private let clock: any Scheduler
  /// The actions as they go through `transform(action:)`.
  private let actionsSeen = PublishSubject<Action, Never>()

  var scheduler: any Scheduler { ImmediateScheduler.instance }

  init(scheduler: any Scheduler) {
    clock = scheduler
  }

  // ReactorKit's stopwatch takes its ticks until `self.action` emits `.stop`. Cascade's action
  // input is not a stream; the action stream is the one `transform(action:)` reworks, so the
  // reactor watches it there.
  func transform(action: Observable<Action, Never>) -> Observable<Action, Never> {
    action.do(onNext: { [actionsSeen] in actionsSeen.onNext($0) }).asObservable()
  }

  func mutate(action: Action) -> Observable<Mutation, Never> {
    switch action {
    case .start:
      let stop = actionsSeen.filter { $0 == .stop }
      return Observable<Int, Never>.interval(.seconds(1), scheduler: clock)
        .map { _ in 1 }
        .take(until: stop)
    case .stop:
      return .empty()
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    state + mutation
  }
}
