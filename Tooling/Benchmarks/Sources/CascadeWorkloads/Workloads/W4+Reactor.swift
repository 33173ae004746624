import CascadeReactor
import CascadeStreams

/// W4's Reactor column: round trips through an asynchronous mutation.
///
/// The reactor's `.start` action mutates into `.run { send in send(.done) }`: an `async`
/// operation, which the reactor runs in a task it tracks, sending the `.done` mutation back; the
/// round trip ends when `.done` is reduced (`reduce(into:)`, W4's reducer). The state is
/// delivered on `ImmediateScheduler.instance` (see W1's Reactor column) to one subscriber,
/// `reactor.state.map { $0.done }.distinctUntilChanged()`, which records the done count and
/// reports it to the driver's ``Waiter``, as in the Store column.
///
/// - **W4**: the driver sends `.start`, waits for its result to be reduced, then sends the next.
/// - **W4b**: the driver sends N `.start` in a row and waits until all N results are reduced.
///
/// A reactor has no `shutdown`: each run ends by waiting (yielding) until the reactor reports no
/// operation in flight, then checks that N results were reduced.
extension W4 {
  enum ReactorAction: Sendable {
    case start
  }

  final class RoundTripReactor: Reactor {
    typealias Action = ReactorAction
    typealias Mutation = W4.Action

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    private let reducer = makeReducer()
    private let operation = makeOperation()

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .start: .run(operation)
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      reducer(&state, mutation)
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
  }

  /// The asynchronous mutation: sends `.done` back.
  static func makeOperation() -> @Sendable (MutationSender<Action>) async throws -> Void {
    let operation: @Sendable (MutationSender<Action>) async throws -> Void = { send in
      send(.done)
    }
    return opaque(operation)
  }

  static let reactorCells = [
    Cell(sequential, .reactor, expected: expected, goal: .minimumRate(50e3)) { n in
      try runBlocking { try await reactorSequential(n) }
    },
    Cell(burst, .reactor, expected: expected, goal: .minimumRate(50e3)) { n in
      try runBlocking { try await reactorBurst(n) }
    },
  ]

  static func reactorSequential(_ n: Int) async throws -> Checksum {
    let (reactor, subscription, tally, waiter) = makeReactor()
    Operations.begin()
    for done in 1..<(n + 1) {
      await waiter.wait(until: done) { reactor.send(.start) }
    }
    Operations.end()
    return try await finish(reactor, subscription, tally, n: n)
  }

  static func reactorBurst(_ n: Int) async throws -> Checksum {
    let (reactor, subscription, tally, waiter) = makeReactor()
    Operations.begin()
    await waiter.wait(until: n) {
      for _ in 0..<n { reactor.send(.start) }
    }
    Operations.end()
    return try await finish(reactor, subscription, tally, n: n)
  }

  /// A reactor whose state subscriber records the done count and reports it to a waiter.
  static func makeReactor() -> (RoundTripReactor, any Disposable, Tally, Waiter) {
    let tally = Tally()
    let waiter = Waiter()
    let reactor = RoundTripReactor()
    let subscription = reactor.state
      .map(opaque { @Sendable (state: State) in state.done })
      .distinctUntilChanged()
      .subscribe(
        onNext: opaque { @Sendable (value: Int) in
          tally.record(value)
          waiter.reached(value)
        }
      )
    return (reactor, subscription, tally, waiter)
  }

  /// Waits for the operations' tasks to end and checks that every result was reduced.
  static func finish(
    _ reactor: RoundTripReactor,
    _ subscription: any Disposable,
    _ tally: Tally,
    n: Int
  ) async throws -> Checksum {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(10))
    while reactor.effectsInFlight > 0 && clock.now < deadline { await Task.yield() }
    await reactor.settle()
    let done = reactor.currentState.done
    try check(done == n, "\(done) results reduced, expected \(n)")
    let inFlight = reactor.effectsInFlight
    try check(inFlight == 0, "\(inFlight) operations still in flight")
    subscription.dispose()
    return tally.checksum
  }
}
