public import AppSupport
public import CascadeReactor
public import CascadeStore
public import CascadeStreams

/// The movie list on a `Reactor`, as ReactorKit's paging examples write it: `mutate` reads the
/// current state to decide whether an intent starts a request, and returns the request's start
/// at once and its page later, cancellable by one id, so that a refresh cancels the page in
/// flight (`cancelInFlight`).
public final class ReactorMovies: ContainerService {
  /// The reactor behind the service.
  public let reactor: MoviesReactor

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - source: Where pages come from (the HTTP client).
  ///   - scheduler: Where states are delivered. Default: at once, on the producing thread.
  ///   - initialState: The state the list starts from: an empty one unless another is given (a
  ///     live inspector's replay starts from a state it kept).
  ///   - middlewares: Middlewares that see every action and mutation (a session recorder).
  public init(
    source: any MoviePageSource,
    scheduler: any Scheduler = ImmediateScheduler.instance,
    initialState: MoviesState = MoviesState(),
    middlewares: [any Middleware<MoviesIntent, MoviesState>] = []
  ) {
    reactor = MoviesReactor(
      source: source,
      scheduler: scheduler,
      initialState: initialState,
      middlewares: middlewares
    )
  }

  /// The reactor.
  public var container: MoviesReactor { reactor }
}

/// The reactor of ``ReactorMovies``: intents in, page requests and their outcomes as mutations.
public final class MoviesReactor: Reactor, ArchitectureContainer {
  /// What the user asked for.
  public typealias Action = MoviesIntent

  /// What changes the state.
  public enum Mutation: Sendable, Equatable, Codable {
    /// A request starts.
    case begin(PageRequest)
    /// A page answered a request.
    case response(PageRequest, MoviePage)
    /// A request failed.
    case failed(PageRequest, MoviesError)
  }

  /// The id of the page work: one page loads at a time.
  static let pageWork = "page"

  /// The list it starts from: an empty one unless another was given.
  public let initialState: MoviesState
  /// The reactor's machinery.
  public let runtime = ReactorRuntime<Action, Mutation, MoviesState>()
  /// Where states are delivered.
  public let scheduler: any Scheduler
  /// The middlewares: none, or a session recorder.
  public let middlewares: [any Middleware<MoviesIntent, MoviesState>]
  private let source: any MoviePageSource

  /// Creates the reactor.
  ///
  /// - Parameters:
  ///   - source: Where pages come from.
  ///   - scheduler: Where states are delivered.
  ///   - initialState: The list it starts from.
  ///   - middlewares: Middlewares that see every action and mutation.
  public init(
    source: any MoviePageSource,
    scheduler: any Scheduler,
    initialState: MoviesState = MoviesState(),
    middlewares: [any Middleware<MoviesIntent, MoviesState>] = []
  ) {
    self.source = source
    self.initialState = initialState
    self.scheduler = scheduler
    self.middlewares = middlewares
  }

  /// Starts the request the intent asks for, if any, cancelling the one in flight.
  public func mutate(action: Action) -> Mutations<Mutation> {
    guard let request = currentState.request(for: action) else { return .none }
    let outcome = source.page(request.page)
      .map { Mutation.response(request, $0) }
      .catch { Observable.just(Mutation.failed(request, $0)) }
    return Mutations(sync: .begin(request), async: outcome)
      .cancellable(id: Self.pageWork, cancelInFlight: true)
  }

  /// Applies a mutation with the shared transitions of ``MoviesState``.
  public func reduce(into state: inout MoviesState, mutation: Mutation) {
    mutation.apply(to: &state)
  }
}

extension MoviesReactor.Mutation {
  /// Applies the mutation with the shared transitions of ``MoviesState``: the reactor's
  /// reducer, also where a recording's mutations are reduced without a reactor.
  public func apply(to state: inout MoviesState) {
    switch self {
    case .begin(let request): state.begin(request)
    case .response(let request, let page): state.receive(page, for: request)
    case .failed(let request, let error): state.fail(error, for: request)
    }
  }

  /// Whether the mutation is a request's outcome (a page, or a failure), which an effect sent.
  public var isPageOutcome: Bool {
    switch self {
    case .begin: false
    case .response, .failed: true
    }
  }
}
