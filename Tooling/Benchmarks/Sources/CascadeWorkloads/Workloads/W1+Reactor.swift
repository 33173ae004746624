import CascadeMiddleware
import CascadeReactor
import CascadeStore
import CascadeStreams
import Logging

/// W1's Reactor column: the counter written as a user writes a reactor, measured five ways.
///
/// - a `final class` conforming to `Reactor`, with `let runtime = ReactorRuntime<…>()`;
/// - a `BaseReactor` subclass;
/// - a `final class` with no `runtime` property, whose runtime the shared table keeps
///   (`ReactorRuntimes`): the cost of that table's lookup, once per action;
/// - ReactorKit's form: no `runtime`, and `mutate` returning `Observable.just(…)`;
/// - the `final class` with a `LoggingMiddleware` that writes nothing: the middleware adapter's
///   cost per action.
///
/// Each `mutate`s an `.increment` action into `.just(.increment)` and apply it with
/// `reduce(into:)` (the in-place form, which calls W1's reducer). Their `scheduler` is
/// `ImmediateScheduler.instance`, so that `reactor.state` delivers on the sending thread before
/// `send` returns (the default, the main queue, would hop queues off the main thread): the
/// Store column's `.synchronous` delivery. One subscriber to `reactor.state` reads `count`; N
/// `reactor.send(.increment)` from one thread. The table shows the faster of the two and notes
/// the other.
extension W1 {
  /// The `final class` reactor: the form the `Reactor` documentation shows.
  final class CounterReactor: Reactor {
    typealias Mutation = Action

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    private let reducer = makeReducer()

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .increment: .just(.increment)
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      reducer(&state, mutation)
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
  }

  /// The `BaseReactor` subclass: SwiftReactor's form.
  final class CounterBaseReactor: BaseReactor<Action, Action, State>, @unchecked Sendable {
    // Safety: no state of its own beyond the immutable, Sendable reducer.
    private let reducer = makeReducer()

    init() {
      super.init(initialState: State())
    }

    override func mutate(action: Action) -> Mutations<Action> {
      switch action {
      case .increment: .just(.increment)
      }
    }

    override func reduce(into state: inout State, mutation: Action) {
      reducer(&state, mutation)
    }

    override var scheduler: any Scheduler { ImmediateScheduler.instance }
  }

  /// The `final class` reactor with no `runtime` property.
  final class CounterReactorWithoutRuntime: Reactor {
    typealias Mutation = Action

    let initialState = State()
    private let reducer = makeReducer()

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .increment: .just(.increment)
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      reducer(&state, mutation)
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
  }

  /// The reactor as ReactorKit's users write it: no `runtime`, `mutate` returns an `Observable`.
  final class ObservableCounterReactor: Reactor {
    typealias Mutation = Action

    let initialState = State()
    private let reducer = makeReducer()

    func mutate(action: Action) -> Observable<Mutation, Never> {
      switch action {
      case .increment: .just(.increment)
      }
    }

    func reduce(into state: inout State, mutation: Mutation) {
      reducer(&state, mutation)
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
  }

  /// The `final class` reactor with the logging middleware at `.info` on a logger at
  /// `.critical` (as the Store's variant): the cost of the adapter that puts a reactor's
  /// middlewares on its store, per action, and of a middleware that writes nothing.
  final class CounterReactorWithLogging: Reactor {
    typealias Mutation = Action

    let initialState = W1.State()
    let runtime = ReactorRuntime<Action, Mutation, W1.State>()
    let middlewares: [any Middleware<Action, W1.State>]
    private let reducer = makeReducer()

    init() {
      var logger = Logger(label: "cascade.benchmarks.w1.reactor")
      logger.logLevel = .critical
      middlewares = [LoggingMiddleware<Action, W1.State>(logger: logger, level: .info)]
    }

    func mutate(action: Action) -> Mutations<Mutation> {
      switch action {
      case .increment: .just(.increment)
      }
    }

    func reduce(into state: inout W1.State, mutation: Mutation) {
      reducer(&state, mutation)
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
  }

  static let reactorCells = [
    Cell(
      workload,
      .reactor,
      variant: "final class conforming to Reactor",
      expected: expected,
      goal: .all([.minimumRate(10e6), .maximumRatio(2, to: .plain)]),
      run: { n in try runReactor(CounterReactor(), n: n) }
    ),
    Cell(
      workload,
      .reactor,
      variant: "BaseReactor subclass",
      expected: expected,
      goal: .all([.minimumRate(10e6), .maximumRatio(2, to: .plain)]),
      run: { n in try runReactor(CounterBaseReactor(), n: n) }
    ),
    Cell(
      workload,
      .reactor,
      variant: "no runtime property",
      expected: expected,
      run: { n in try runReactor(CounterReactorWithoutRuntime(), n: n) }
    ),
    Cell(
      workload,
      .reactor,
      variant: "ReactorKit's form: no runtime property, mutate returns an Observable",
      expected: expected,
      run: { n in try runReactor(ObservableCounterReactor(), n: n) }
    ),
    Cell(
      workload,
      .reactor,
      variant: "with a LoggingMiddleware whose logger filters every line out",
      expected: expected,
      run: { n in try runReactor(CounterReactorWithLogging(), n: n) }
    ),
  ]

  static func runReactor<R: Reactor>(_ reactor: R, n: Int) throws -> Checksum
  where R.Action == Action, R.State == State {
    let tally = Tally()
    let subscription = reactor.state.subscribe(
      onNext: opaque { @Sendable (state: State) in tally.record(state.count) }
    )
    Operations.begin()
    dispatch(n: n, to: reactor)
    Operations.end()
    let count = reactor.currentState.count
    try check(count == n, "final count \(count), expected \(n)")
    subscription.dispose()
    return tally.checksum
  }

  @inline(never)
  static func dispatch<R: Reactor>(n: Int, to reactor: R) where R.Action == Action {
    for _ in 0..<n { reactor.send(.increment) }
  }
}
