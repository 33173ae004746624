import AppTestSupport
import CascadeStreams
import Foundation
import MoviesCore
import MoviesServer
import Testing

extension MovieCatalog {
  /// 45 films, 20 a page: three pages, the last one with 5 films.
  static let small = MovieCatalog(
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
}

/// Runs `body` against a started catalog server on loopback, and stops it afterwards.
func withServer<T>(
  catalog: MovieCatalog = .small,
  faults: ServerFaults = ServerFaults(),
  _ body: (MovieCatalogServer, String) async throws -> T
) async throws -> T {
  let server = MovieCatalogServer(catalog: catalog, faults: faults)
  let url = try await server.start()
  do {
    let result = try await body(server, url.absoluteString)
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}

/// The outcome of one page request.
func load(_ page: Int, from client: MoviesClient) async -> Result<MoviePage, MoviesError> {
  await withCheckedContinuation { continuation in
    let resumed = LockedBox(false)
    let resume: @Sendable (Result<MoviePage, MoviesError>) -> Void = { result in
      guard !resumed.value else { return }
      resumed.value = true
      continuation.resume(returning: result)
    }
    _ = client.page(page).subscribe(
      onNext: { resume(.success($0)) },
      onError: { resume(.failure($0)) }
    )
  }
}
