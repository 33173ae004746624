import CascadeReactor
import CascadeStreams

/// W3's Reactor column: the 10,000 items in a reactor's state, toggled with `reduce(into:)` in
/// place.
///
/// The reactor applies `.toggle(i)` as a mutation with W3's reducer (which also watches the
/// array's buffer) and delivers on `ImmediateScheduler.instance` (see W1's Reactor column). One
/// subscriber, `reactor.select { $0.doneCount }` (a selection: the whole-state stream of an
/// `Equatable` state would keep the previous state and force a copy), records the done
/// count. The same probes as the Store column: the buffer moves (a copy per action moves it) and
/// the peak memory of the toggles.
///
/// `initialState` is a computed property, as the `Reactor` documentation advises for a large
/// state: a stored `let initialState` keeps the initial buffer alive beside the reactor's state,
/// so the first toggle copies the whole array once (the buffer then moves once, and peak memory
/// grows by one state; every later toggle is in place).
extension W3 {
  final class ItemsReactor: Reactor {
    typealias Mutation = Action

    var initialState: State { makeState() }
    let runtime = ReactorRuntime<Action, Mutation, State>()
    private let reducer: @Sendable (inout State, Action) -> Void

    init(reducer: @escaping @Sendable (inout State, Action) -> Void) {
      self.reducer = reducer
    }

    func mutate(action: Action) -> Mutations<Mutation> {
      .just(action)
    }

    func reduce(into state: inout State, mutation: Mutation) {
      reducer(&state, mutation)
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
  }

  static let reactorCell = Cell(
    workload,
    .reactor,
    expected: expected,
    measuresMemory: true,
    goal: .all([.minimumRate(5e6), flatMemory, .maximumRatio(2, to: .plain)]),
    notes: notes,
    outcome: runReactor
  )

  static func runReactor(n: Int) throws -> Outcome {
    let tally = Tally()
    let watch = BufferWatch()
    let reactor = ItemsReactor(reducer: makeReducer(watch))
    let subscription =
      reactor
      .select(opaque { @Sendable (state: State) in state.doneCount })
      .subscribe(onNext: opaque { @Sendable (value: Int) in tally.record(value) })
    watch.start(at: address(of: reactor.currentState.items))
    MemoryProbe.operationsBegin(stateBytes: stateBytes)
    Operations.begin()
    toggle(n: n, reactor)
    Operations.end()
    try checkFinal(reactor.currentState, tally)
    subscription.dispose()
    return Outcome(checksum: tally.checksum, counters: [reallocations: watch.moves])
  }

  @inline(never)
  static func toggle(n: Int, _ reactor: ItemsReactor) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<n { reactor.send(.toggle(random.index(below: count))) }
  }
}
