import AppSupport
import ArgumentParser
import Foundation
import MoviesCore
import MoviesServer

/// `movies browse`: pages through the catalog interactively.
struct Browse: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Pages through the catalog interactively: next, refresh, retry, quit.",
    discussion: RecordingOptions.help
  )

  @OptionGroup var source: SourceOptions

  @OptionGroup var recording: RecordingOptions

  func run() async throws {
    let connection = try await Connection.open(source, recording: recording, command: "browse")
    let session = connection.session
    print("Browsing \(connection.url) on the \(session.service.architecture) architecture.")
    print("Commands: n(ext) or Enter, r(efresh), t (retry), q(uit).")
    do {
      try await reportingReplayErrors {
        try await Self.browse(session, patience: source.patience) {
          try await session.line { readLine() }
        }
      }
    } catch {
      if let server = connection.server { await server.stop() }
      throw error
    }
    try await connection.finish()
  }

  /// Browses `movies` live, in a session that records nothing, with the keys `nextLine` gives.
  static func browse(
    _ movies: any AppService<MoviesIntent, MoviesState>,
    patience wait: Duration,
    nextLine: () async throws -> String?
  ) async throws {
    try await browse(AppSession.live(movies), patience: wait, nextLine: nextLine)
  }

  /// Loads the first page, then runs the keys `nextLine` gives until it returns `nil` (end of
  /// input) or `quit`; an unknown key is reported on standard error and the loop goes on.
  ///
  /// - Throws: ``AppServiceTimeout`` when a page takes longer than `patience`.
  static func browse(
    _ session: AppSession<MoviesIntent, MoviesState>,
    patience wait: Duration,
    nextLine: () async throws -> String?
  ) async throws {
    render(try await session.perform(.loadNextPage, timeout: wait) { !$0.isLoading })
    while let line = try await nextLine() {
      let state = session.service.currentState
      let key: BrowseKey
      do {
        key = try BrowseKey.parse(line)
      } catch {
        printError("movies: \(error)")
        continue
      }
      let intent: MoviesIntent
      switch key {
      case .next:
        guard !state.isAtEnd else {
          print("That was the last page. r(efresh) to start over, q(uit) to leave.")
          continue
        }
        intent = .loadNextPage
      case .refresh:
        intent = .refresh
      case .retry:
        guard state.phase == .error else {
          print("Nothing to retry.")
          continue
        }
        intent = .retry
      case .quit:
        return
      }
      render(try await session.perform(intent, timeout: wait) { !$0.isLoading })
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
