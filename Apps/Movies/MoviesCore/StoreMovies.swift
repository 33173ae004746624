public import AppSupport
public import CascadeStore
public import CascadeStreams

/// The movie list on a `Store`: a reducer over ``MoviesEvent``, and a `Command` that starts the
/// request each intent issued.
///
/// This is the Store idiom the three apps share: a command, run with the state the intent
/// produced, starts the effect that state asks for with the store's `run`, so the store tracks it
/// (`effectsInFlight`, `finish()`) and cancels it on shutdown. Here the effect is a stream;
/// Todo's writes and the RPG's saves and loads are `run` tasks.
///
/// After each intent the service fires a ``StartRequest`` command; it runs in order with the
/// inputs, with the state they produced, and starts the request in flight if it is new, as an
/// effect of the store's registry under one id: a newer request cancels the older one (latest
/// wins), and the store's shutdown or release cancels it. Its page or failure comes back as an
/// input.
public final class StoreMovies: ContainerService {
  /// The store behind the service.
  public let store: Store<MoviesState, MoviesEvent>
  private let source: any MoviePageSource
  private let started = LockedValue(0)

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - source: Where pages come from (the HTTP client).
  ///   - scheduler: The store's clock.
  ///   - initialState: The state the list starts from: an empty one unless another is given (a
  ///     live inspector's replay starts from a state it kept).
  ///   - middlewares: Middlewares that see every event (a session recorder).
  public init(
    source: any MoviePageSource,
    scheduler: any Scheduler = ConcurrentDispatchQueueScheduler(),
    initialState: MoviesState = MoviesState(),
    middlewares: [any Middleware<MoviesEvent, MoviesState>] = []
  ) {
    self.source = source
    store = Store(
      initialState: initialState,
      middlewares: middlewares,
      scheduler: scheduler,
      reducer: MoviesEvent.reduce
    )
  }

  /// The store.
  public var container: Store<MoviesState, MoviesEvent> { store }

  /// Sends the intent to the store; the request it issues, if any, starts through a command.
  public func send(_ intent: MoviesIntent) {
    store.send(.intent(intent))
    store.fire(command: StartRequest(source: source, started: started))
  }
}

/// Starts the request in flight if no earlier command started it: the store's one page effect.
struct StartRequest: Command {
  /// The id of the effect: one page loads at a time.
  static let pageWork = "page"

  let source: any MoviePageSource
  /// The id of the last request started.
  let started: LockedValue<Int>

  func execute(state: MoviesState, core: Store<MoviesState, MoviesEvent>) {
    guard let request = state.request else { return }
    let isNew = started.withLock { started in
      defer { started = max(started, request.id) }
      return request.id > started
    }
    guard isNew else { return }
    core.run(
      "request \(request.id) (page \(request.page))",
      id: Self.pageWork,
      cancelInFlight: true,
      stream: source.events(for: request)
    )
  }
}

/// Creates the movie list service on `architecture`.
///
/// ```swift
/// let client = try MoviesClient(baseURL: "http://127.0.0.1:8080")
/// let movies = makeMovies(.reactor, client: client)
/// movies.send(.loadNextPage)
/// ```
public func makeMovies(
  _ architecture: Architecture,
  client: any MoviePageSource
) -> any AppService<MoviesIntent, MoviesState> {
  MoviesApp.service(architecture, client)
}
