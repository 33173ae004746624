import CascadeStore
import CascadeStreams

/// W2, fan-out: a state of 1,000 `Int`s and 1,000 subscribers, each selecting its own element
/// with skip-repeats; N actions, action `k` incrementing element `k % 1000`.
///
/// The Store and Reactor columns subscribe as a user would to one element of a collection,
/// `store.subscribe(\.values, at: i, on: .synchronous)` (and `reactor.select(\.values, at: i)`),
/// which goes through the store's subscription index; their second variant selects with a
/// closure, `subscribe(select: { $0.values[i] })`, which runs every selector per action.
///
/// Each action changes one element, so exactly one subscriber should be called per action: N
/// callbacks, plus the 1,000 initial values delivered when the subscribers subscribe. The
/// checksum counts the callbacks; N × 1,000 would mean every subscriber is called per action.
/// With the index, the subscribed elements are compared in one pass per action; with closures,
/// every subscriber's selector is called and its selection compared after every action.
enum W2 {
  static let workload = Workload(id: "W2", name: "fan-out", n: 10_000, quickN: 1_000)

  /// The number of elements of the state, and of subscribers.
  static let width = 1_000

  struct State: Sendable {
    var values = [Int](repeating: 0, count: W2.width)
  }

  enum Action: Sendable {
    case increment(Int)
  }

  static func makeReducer() -> @Sendable (inout State, Action) -> Void {
    let reducer: @Sendable (inout State, Action) -> Void = { state, action in
      switch action {
      case .increment(let index): state.values[index] &+= 1
      }
    }
    return opaque(reducer)
  }

  /// The 1,000 initial zeros, then one callback per action with the new value of its element.
  static func expected(_ n: Int) -> Checksum {
    var checksum = Checksum(count: width, sum: 0, last: 0)
    for k in 0..<n {
      checksum.count += 1
      checksum.sum &+= k / width + 1
      checksum.last = k / width + 1
    }
    return checksum
  }

  /// Prints the callback count next to the ideal.
  static func notes(_ measured: CellMeasurement) -> [String] {
    let n = measured.n
    return [
      "\(Format.grouped(measured.valuesReceived)) subscriber callbacks "
        + "(expected N + \(Format.grouped(width)) initial = \(Format.grouped(n + width)); "
        + "ideal N = \(Format.grouped(n)), one per action; one per subscriber would be "
        + "N × \(Format.grouped(width)) = \(Format.grouped(n * width)))"
    ]
  }

  /// Issue 21's goal for what users write, a closure selector per subscriber: at least 4 times
  /// the plain store's rate (which calls every subscriber's selector too) and 150 k/s.
  static let closureSelectorGoal = Goal.all([
    oneCallbackPerAction, .maximumRatio(0.25, to: .plain), .minimumRate(150e3),
  ])

  static let oneCallbackPerAction = Goal(
    description: "one callback per action (N + \(Format.grouped(width)) initial)"
  ) { measured, _ in
    let callbacks = measured.valuesReceived
    return Goal.Verdict(
      met: callbacks == measured.n + width,
      detail: "\(Format.grouped(callbacks)) callbacks for N = \(Format.grouped(measured.n))"
    )
  }

  static let cells =
    [
      Cell(workload, .plain, expected: expected, notes: notes, run: runPlain),
      Cell(
        workload,
        .store,
        variant: "subscribe(\\.values, at: i): the subscription index",
        expected: expected,
        goal: .all([oneCallbackPerAction, .minimumRate(350e3)]),
        notes: notes,
        run: runStoreIndexed
      ),
      Cell(
        workload,
        .store,
        variant: "subscribe(select: { $0.values[i] }): a selector per subscriber",
        expected: expected,
        goal: closureSelectorGoal,
        notes: notes,
        run: runStore
      ),
    ] + reactorCells

  static func runPlain(n: Int) throws -> Checksum {
    let tally = Tally()
    let record = opaque { @Sendable (value: Int) in tally.record(value) }
    let store = PlainStore(initialState: State(), reducer: makeReducer())
    for index in 0..<width {
      let select = opaque { @Sendable (state: State) in state.values[index] }
      store.subscribe(select: select, record)
    }
    Operations.begin()
    dispatch(n: n, to: store)
    Operations.end()
    try check(store.state.values == final(n), "final values differ from the expected ones")
    return tally.checksum
  }

  static func runStore(n: Int) throws -> Checksum {
    let tally = Tally()
    let record = opaque { @Sendable (value: Int) in tally.record(value) }
    let store = Store(initialState: State(), reducer: makeReducer())
    for index in 0..<width {
      store.subscribe(
        select: opaque { @Sendable (state: State) in state.values[index] },
        on: .synchronous,
        record
      )
    }
    try check(store.subscriptionCount == width, "\(store.subscriptionCount) subscriptions")
    Operations.begin()
    dispatch(n: n, to: store)
    Operations.end()
    try check(store.state.values == final(n), "final values differ from the expected ones")
    return tally.checksum
  }

  static func runStoreIndexed(n: Int) throws -> Checksum {
    let tally = Tally()
    let record = opaque { @Sendable (value: Int) in tally.record(value) }
    let store = Store(initialState: State(), reducer: makeReducer())
    var subscriptions: [any Disposable] = []
    subscriptions.reserveCapacity(width)
    for index in 0..<width {
      subscriptions.append(store.subscribe(\.values, at: index, on: .synchronous, record))
    }
    Operations.begin()
    dispatch(n: n, to: store)
    Operations.end()
    try check(store.state.values == final(n), "final values differ from the expected ones")
    for subscription in subscriptions { subscription.dispose() }
    try check(store.subscriptionCount == 0, "\(store.subscriptionCount) subscriptions left")
    return tally.checksum
  }

  /// The state's values after N actions.
  static func final(_ n: Int) -> [Int] {
    (0..<width).map { index in n / width + (index < n % width ? 1 : 0) }
  }

  @inline(never)
  static func dispatch(n: Int, to store: PlainStore<State, Action>) {
    for k in 0..<n { store.send(.increment(k % width)) }
  }

  @inline(never)
  static func dispatch(n: Int, to store: Store<State, Action>) {
    for k in 0..<n { store.send(.increment(k % width)) }
  }
}
