public import AppSupport
public import CascadeStore
public import CascadeStreams

/// The movie list on a `Store`: a reducer over ``MoviesEvent``, and a subscriber that follows
/// the request in flight — when it changes, the previous request is disposed of (cancelled)
/// and the new one started; its page or failure is sent back to the store.
public final class StoreMovies: AppService {
  /// The store behind the service.
  public let store: Store<MoviesState, MoviesEvent>
  private let requestFollower: any Disposable
  private let inFlight = SerialDisposable()

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - source: Where pages come from (the HTTP client).
  ///   - scheduler: The store's clock.
  public init(
    source: any MoviePageSource,
    scheduler: any Scheduler = ConcurrentDispatchQueueScheduler()
  ) {
    let store = Store(
      initialState: MoviesState(),
      scheduler: scheduler,
      reducer: MoviesEvent.reduce
    )
    let inFlight = inFlight
    self.store = store
    // Delivered on the processing thread, in order; sending from here is queued.
    requestFollower = store.select(\.request).subscribe(onNext: { [weak store] request in
      guard let store else { return }
      guard let request else {
        inFlight.replace(with: Disposables.empty)
        return
      }
      inFlight.replace(
        with: source.events(for: request).subscribe(onNext: { [weak store] in store?.send($0) })
      )
    })
  }

  /// ``Architecture/store``.
  public var architecture: Architecture { .store }

  /// The store's state now.
  public var currentState: MoviesState { store.state }

  /// The store's states.
  public var states: Observable<MoviesState, Never> { store.states }

  /// Sends the intent to the store.
  public func send(_ intent: MoviesIntent) {
    store.send(.intent(intent))
  }

  deinit {
    requestFollower.dispose()
    inFlight.dispose()
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
  switch architecture {
  case .store: StoreMovies(source: client)
  case .reactor: ReactorMovies(source: client)
  case .feedback: FeedbackMovies(source: client)
  }
}
