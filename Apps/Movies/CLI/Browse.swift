import AppSupport
import ArgumentParser
import Foundation
import MoviesKit
import MoviesServer

/// `movies browse`: pages through the catalog interactively.
struct Browse: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Pages through the catalog interactively: next, refresh, retry, quit."
  )

  @OptionGroup var source: SourceOptions

  func run() async throws {
    let (pageSource, client, server) = try await source.connect()
    let movies = makeMovies(source.architecture, client: pageSource)
    print("Browsing \(client.baseURL.absoluteString) on the \(movies.architecture) architecture.")
    print("Commands: n(ext) or Enter, r(efresh), t (retry), q(uit).")
    let wait = source.patience
    movies.send(.loadNextPage)
    render(try await movies.waitForState(timeout: wait) { !$0.isLoading })
    while let line = readLine() {
      let command = line.trimmingCharacters(in: .whitespaces).lowercased()
      let state = movies.currentState
      switch command {
      case "", "n", "next":
        guard !state.isAtEnd else {
          print("That was the last page. r(efresh) to start over, q(uit) to leave.")
          continue
        }
        movies.send(.loadNextPage)
      case "r", "refresh":
        movies.send(.refresh)
      case "t", "retry":
        guard state.phase == .error else {
          print("Nothing to retry.")
          continue
        }
        movies.send(.retry)
      case "q", "quit", "exit":
        if let server { await server.stop() }
        return
      default:
        print("Unknown command '\(command)'. Commands: n(ext), r(efresh), t (retry), q(uit).")
        continue
      }
      render(try await movies.waitForState(timeout: wait) { !$0.isLoading })
    }
    if let server { await server.stop() }
  }

  func render(_ state: MoviesState) {
    if state.phase == .error, let failure = state.failure {
      print("Page \(failure.request.page) failed: \(failure.error). t (retry) to try again.")
      return
    }
    let batch = state.batch
    print("")
    print("Page \(batch.page) of \(batch.totalPages) — \(batch.totalResults) films")
    let first = state.movies.count - batch.results.count + 1
    for (offset, movie) in batch.results.enumerated() {
      print(movie.line(number: first + offset))
    }
    if state.isAtEnd { print("(last page)") }
  }
}
