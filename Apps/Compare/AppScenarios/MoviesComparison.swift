public import AppHarness
public import AppSupport
public import Foundation
public import MoviesCore
public import MoviesServer

/// The movie list as the comparison drives it, over real HTTP against one embedded catalog
/// server on loopback: paging to the end, and a failed page retried (the same scenarios as
/// `MoviesScenarioTests`).
public final class MoviesComparison: ComparedApp {
  /// One step of a movies scenario.
  public typealias Step = Scenario<MoviesIntent, MoviesState>.Step

  /// The embedded server, started by ``start()``.
  public let server: MovieCatalogServer

  /// Creates the comparison with a server of 45 films, 20 a page.
  public init() {
    server = MovieCatalogServer(catalog: Self.catalog)
  }

  /// 45 films, 20 a page: three pages, the last one with 5 films.
  public static let catalog = MovieCatalog(
    movies: (1...45).map {
      Movie(
        id: $0,
        title: "Film \($0)",
        releaseDate: "2001-02-03",
        overview: "#\($0)",
        voteAverage: 7
      )
    },
    pageSize: 20
  )

  /// The server was not started.
  public struct NotStarted: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String { "the movie catalog server is not running" }
  }

  /// "Movies".
  public var name: String { "Movies" }

  /// `Apps/Movies/MoviesCore/StoreMovies.swift`, `ReactorMovies.swift`, `FeedbackMovies.swift`.
  public var implementationFiles: [Architecture: [String]] {
    [
      .store: ["Apps/Movies/MoviesCore/StoreMovies.swift"],
      .reactor: ["Apps/Movies/MoviesCore/ReactorMovies.swift"],
      .feedback: ["Apps/Movies/MoviesCore/FeedbackMovies.swift"],
    ]
  }

  /// Starts the server on loopback.
  public func start() async throws {
    _ = try await server.start()
  }

  /// Stops the server.
  public func stop() async {
    await server.stop()
  }

  /// A movie list with its own client of the running server.
  public func makeService(
    _ architecture: Architecture,
    in directory: URL
  ) async throws -> any AppService<MoviesIntent, MoviesState> {
    guard let url = server.baseURL else { throw NotStarted() }
    // A safety net that must not fire: no scenario here is about timeouts.
    let client = try MoviesClient(baseURL: url.absoluteString, timeout: .seconds(30))
    return makeMovies(architecture, client: client)
  }

  /// Paging to the end, and a failed page retried.
  public func scenarios(in directory: URL) -> [Scenario<MoviesIntent, MoviesState>] {
    [pagingToTheEnd, errorThenRetry]
  }

  static func loaded(page: Int) -> Step {
    .await("page \(page)") { $0.phase == .loadedPage && $0.batch.page == page }
  }

  /// Three pages, a request while a page loads and one after the last page ignored.
  ///
  /// The server holds its answer until both requests were sent, so the second one is sent while
  /// the page loads however fast the answer would come.
  public var pagingToTheEnd: Scenario<MoviesIntent, MoviesState> {
    let server = server
    return Scenario(
      "paging to the end",
      timeout: .seconds(30),
      steps: (1...3).flatMap { page -> [Step] in
        [
          .perform("the server holds its answers") { server.holdAnswers() },
          .send(.loadNextPage),
          .send(.loadNextPage),
          .perform("the server answers") { server.releaseAnswers() },
          Self.loaded(page: page),
        ]
      } + [
        .send(.loadNextPage),
        .expect("all 45 films, at the end") {
          $0.isAtEnd && $0.movies.map(\.id) == Array(1...45) && !$0.isLoading
        },
      ]
    )
  }

  /// Page 2 fails once with HTTP 500 and is retried.
  public var errorThenRetry: Scenario<MoviesIntent, MoviesState> {
    let server = server
    return Scenario(
      "error then retry",
      timeout: .seconds(30),
      steps: [
        .perform("page 2 fails once") { server.faults = ServerFaults(failingPages: [2: 1]) },
        .send(.loadNextPage),
        Self.loaded(page: 1),
        .send(.loadNextPage),
        .await("page 2 fails") { $0.phase == .error },
        .expect("HTTP 500 on page 2") {
          $0.failure?.error == .httpStatus(500) && $0.failure?.request.page == 2
        },
        .send(.retry),
        Self.loaded(page: 2),
        .expect("40 films") { $0.movies.count == 40 },
        .perform("no more faults") { server.faults = ServerFaults() },
      ]
    )
  }
}
