import CascadeReactor
import CascadeStreams

/// W2's Reactor column: 1,000 subscribers, each `reactor.select(\.values, at: i)` (the store's
/// subscription index), or, as the second variant, `reactor.select { $0.values[i] }`.
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

  static let reactorCells = [
    Cell(
      workload,
      .reactor,
      variant: "select(\\.values, at: i): the subscription index",
      expected: expected,
      goal: .all([oneCallbackPerAction, .minimumRate(350e3)]),
      notes: notes,
      run: { n in try runReactor(n: n, indexed: true) }
    ),
    Cell(
      workload,
      .reactor,
      variant: "select { $0.values[i] }: a selector per subscriber",
      expected: expected,
      goal: closureSelectorGoal,
      notes: notes,
      run: { n in try runReactor(n: n, indexed: false) }
    ),
  ]

  static func runReactor(n: Int, indexed: Bool) throws -> Checksum {
    let tally = Tally()
    let record = opaque { @Sendable (value: Int) in tally.record(value) }
    let reactor = FanOutReactor()
    var subscriptions: [any Disposable] = []
    subscriptions.reserveCapacity(width)
    for index in 0..<width {
      if indexed {
        subscriptions.append(reactor.select(\.values, at: index).subscribe(onNext: record))
      } else {
        let select = opaque { @Sendable (state: State) in state.values[index] }
        subscriptions.append(reactor.select(select).subscribe(onNext: record))
      }
    }
    Operations.begin()
    dispatch(n: n, to: reactor)
    Operations.end()
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
