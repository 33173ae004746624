import AppSupport
import ArgumentParser
import Foundation
import MoviesCore
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
    do {
      try await Self.browse(movies, patience: source.patience) { readLine() }
    } catch {
      if let server { await server.stop() }
      throw error
    }
    if let server { await server.stop() }
  }

  /// Loads the first page, then runs the keys `nextLine` gives until it returns `nil` (end of
  /// input) or `quit`; an unknown key is reported on standard error and the loop goes on.
  ///
  /// - Throws: ``AppServiceTimeout`` when a page takes longer than `patience`.
  static func browse(
    _ movies: any AppService<MoviesIntent, MoviesState>,
    patience wait: Duration,
    nextLine: () -> String?
  ) async throws {
    movies.send(.loadNextPage)
    render(try await movies.waitForState(timeout: wait) { !$0.isLoading })
    while let line = nextLine() {
      let state = movies.currentState
      let key: BrowseKey
      do {
        key = try BrowseKey.parse(line)
      } catch {
        printError("movies: \(error)")
        continue
      }
      switch key {
      case .next:
        guard !state.isAtEnd else {
          print("That was the last page. r(efresh) to start over, q(uit) to leave.")
          continue
        }
        movies.send(.loadNextPage)
      case .refresh:
        movies.send(.refresh)
      case .retry:
        guard state.phase == .error else {
          print("Nothing to retry.")
          continue
        }
        movies.send(.retry)
      case .quit:
        return
      }
      render(try await movies.waitForState(timeout: wait) { !$0.isLoading })
    }
  }

  static func render(_ state: MoviesState) {
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

/// A key typed in `movies browse`.
enum BrowseKey: Equatable {
  /// The next page (`n`, `next`, or an empty line).
  case next
  /// Start over from the first page.
  case refresh
  /// Load the failed page again.
  case retry
  /// Leave.
  case quit

  /// A line that is not a key.
  struct Unknown: Error, Equatable, CustomStringConvertible {
    /// The line, trimmed.
    var key: String

    var description: String {
      "unknown command '\(key)'. Commands: n(ext), r(efresh), t (retry), q(uit)."
    }
  }

  /// The key `line` is, ignoring case and the spaces around it.
  static func parse(_ line: String) throws(Unknown) -> BrowseKey {
    let key = line.trimmingCharacters(in: .whitespaces).lowercased()
    switch key {
    case "", "n", "next": return .next
    case "r", "refresh": return .refresh
    case "t", "retry": return .retry
    case "q", "quit", "exit": return .quit
    default: throw Unknown(key: key)
    }
  }
}
