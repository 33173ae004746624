import CascadeMiddleware
import CascadeStore
import CascadeStreams
import Logging

/// W1, counter dispatch: `State { count }`, one action that increments it, one subscriber reading
/// `count`; N actions sent synchronously from one thread.
///
/// The subscriber subscribes to the whole state with `.synchronous` delivery (called on the
/// sending thread before `send` returns; the Store's default, `.main`, would hop to the main
/// queue). It receives the initial state, then one state per action: N + 1 values. Each run
/// checks that the final count is N.
enum W1 {
  static let workload = Workload(
    id: "W1",
    name: "counter dispatch",
    n: 1_000_000,
    quickN: 20_000
  )

  struct State: Sendable {
    var count = 0
  }

  enum Action: Sendable {
    case increment
  }

  /// The reducer both columns run.
  static func makeReducer() -> @Sendable (inout State, Action) -> Void {
    let reducer: @Sendable (inout State, Action) -> Void = { state, action in
      switch action {
      case .increment: state.count &+= 1
      }
    }
    return opaque(reducer)
  }

  /// The initial state, then 1 through N.
  static func expected(_ n: Int) -> Checksum {
    Checksum(count: n + 1, sum: n &* (n &+ 1) / 2, last: n)
  }

  static let cells =
    [
      Cell(workload, .plain, expected: expected, run: runPlain),
      Cell(
        workload,
        .store,
        expected: expected,
        goal: .all([.minimumRate(10e6), .maximumRatio(2, to: .plain)]),
        run: runStore
      ),
      Cell(
        workload,
        .store,
        variant: "with a LoggingMiddleware whose logger filters every line out",
        expected: expected,
        goal: .maximumRatio(2, to: .store),
        run: runStoreWithFilteredLogging
      ),
      existentialCell,
      inputLogCell,
    ] + reactorCells + [feedbackCell]

  static func runPlain(n: Int) throws -> Checksum {
    let tally = Tally()
    let store = PlainStore(initialState: State(), reducer: makeReducer())
    store.subscribe(opaque { (state: State) in tally.record(state.count) })
    Operations.begin()
    dispatch(n: n, to: store)
    Operations.end()
    try check(store.state.count == n, "final count \(store.state.count), expected \(n)")
    return tally.checksum
  }

  static func runStore(n: Int) throws -> Checksum {
    try measure(Store(initialState: State(), reducer: makeReducer()), n: n) {
      dispatch(n: n, to: $0)
    }
  }

  /// The Store cells' run, whatever their actions: one synchronous subscriber tallying `count`,
  /// `dispatch` sending the N actions between the operations' marks, and the final count checked.
  static func measure<StoreAction: Sendable>(
    _ store: Store<State, StoreAction>,
    n: Int,
    dispatch: (Store<State, StoreAction>) -> Void
  ) throws -> Checksum {
    let tally = Tally()
    let subscription = store.subscribe(
      on: .synchronous,
      opaque { @Sendable (state: State) in tally.record(state.count) }
    )
    Operations.begin()
    dispatch(store)
    Operations.end()
    try check(store.state.count == n, "final count \(store.state.count), expected \(n)")
    subscription.dispose()
    return tally.checksum
  }

  /// The Store column with the logging middleware attached at `.info` to a logger at
  /// `.critical`: the cost of a middleware that decides per action to write nothing (issue 6
  /// asks for at most twice the time of the store without it).
  static func runStoreWithFilteredLogging(n: Int) throws -> Checksum {
    var logger = Logger(label: "cascade.benchmarks.w1")
    logger.logLevel = .critical
    let store = Store(
      initialState: State(),
      middlewares: [LoggingMiddleware<Action, State>(logger: logger, level: .info)],
      reducer: makeReducer()
    )
    return try measure(store, n: n) { dispatch(n: n, to: $0) }
  }

  /// The sending loops, out of line.
  @inline(never)
  static func dispatch(n: Int, to store: PlainStore<State, Action>) {
    for _ in 0..<n { store.send(.increment) }
  }

  @inline(never)
  static func dispatch(n: Int, to store: Store<State, Action>) {
    for _ in 0..<n { store.send(.increment) }
  }
}
