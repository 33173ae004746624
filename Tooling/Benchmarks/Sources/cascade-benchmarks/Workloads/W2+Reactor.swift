import CascadeReactor
import CascadeStreams

/// W2's Reactor column: 1,000 subscribers, each
/// `reactor.select { $0.values[i] }`.
///
/// The reactor applies `.increment(k)` as a mutation with `reduce(into:)` (W2's reducer) and
/// delivers on `ImmediateScheduler.instance` (see W1's Reactor column). Each subscriber's
/// selection is computed and compared per action (skipping repeats), and the callbacks are
/// counted as in the other columns.
extension W2 {
  final class FanOutReactor: Reactor {
    typealias Mutation = Action

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    private let reducer = makeReducer()

    func mutate(action: Action) -> Mutations<Mutation> {
      .just(action)
    }

    func reduce(into state: inout State, mutation: Mutation) {
      reducer(&state, mutation)
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
  }

  static let reactorBenchmark = Benchmark(
    workload,
    .reactor,
    expected: expected,
    goal: oneCallbackPerAction,
    notes: notes,
    run: runReactor
  )

  static func runReactor(n: Int) throws -> Checksum {
    let tally = Tally()
    let record = opaque { @Sendable (value: Int) in tally.record(value) }
    let reactor = FanOutReactor()
    var subscriptions: [any Disposable] = []
    subscriptions.reserveCapacity(width)
    for index in 0..<width {
      let select = opaque { @Sendable (state: State) in state.values[index] }
      subscriptions.append(
        reactor.select(select).subscribe(onNext: record)
      )
    }
    dispatch(n: n, to: reactor)
    try check(
      reactor.currentState.values == final(n),
      "final values differ from the expected ones"
    )
    for subscription in subscriptions { subscription.dispose() }
    return tally.checksum
  }

  @inline(never)
  static func dispatch(n: Int, to reactor: FanOutReactor) {
    for k in 0..<n { reactor.send(.increment(k % width)) }
  }
}
