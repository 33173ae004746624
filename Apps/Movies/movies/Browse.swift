import AppSupport
import ArgumentParser
import CommandLineSupport
import Foundation
import MoviesCore
import MoviesServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `movies browse`: pages through the catalog interactively.
struct Browse: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Pages through the catalog interactively: next, refresh, retry, quit.",
    discussion: """
      Keys, one a line: n, next or Enter for the next page; r or refresh to start over from \
      page 1; t or retry to load a failed page again; q, quit or exit to leave (as does the \
      end of input). Typed at a terminal, each key is asked for with the prompt `movies> `; \
      while a page loads, a terminal shows `Loading page N…`. An unknown key is reported on \
      standard error and browsing goes on; a failed page is shown and browsing goes on.

      \(RecordingOptions.help)

      \(ExitStatus.helpText)

      A line of input that is not UTF-8 ends browsing with 65.
      """
  )

  @OptionGroup var source: SourceOptions

  @OptionGroup var recording: RecordingOptions

  @OptionGroup var inspection: InspectOptions

  /// The prompt before each key, at a terminal.
  static let prompt = "movies> "

  func run() async throws {
    let connection = try await Connection.open(
      source,
      recording: recording,
      inspection: inspection,
      command: "browse"
    )
    let session = connection.session
    do {
      try await reportingReplayErrors {
        // Read like a key: a replay shows the prompts the recorded session showed.
        let prompting = try await session.flag("prompt") { isatty(STDIN_FILENO) == 1 }
        StandardOutput.print(
          "Browsing \(DisplayText.escaped(connection.url)) on the "
            + "\(session.service.architecture) architecture."
        )
        StandardOutput.print("Keys: n(ext) or Enter, r(efresh), t (retry), q(uit).")
        try await Self.browse(
          session,
          patience: source.patience,
          prompt: prompting ? Self.prompt : nil,
          loadingIndicator: isatty(STDOUT_FILENO) == 1
        ) {
          try await Self.readKey(session)
        }
      }
    } catch let error as InvalidUTF8 {
      try await connection.finish()
      throw fail("\(error): nothing was done with that line", .dataError)
    } catch let timeout as AppServiceTimeout {
      if let server = connection.server { await server.stop() }
      throw fail("\(timeout)", .temporaryFailure)
    } catch {
      if let server = connection.server { await server.stop() }
      throw error
    }
    try await connection.finish()
  }

  /// The next line of standard input (recorded; replayed from the recording): `nil` at its end.
  ///
  /// - Throws: ``InvalidUTF8`` for a line that is not UTF-8, live and in its replay.
  static func readKey(_ session: AppSession<MoviesIntent, MoviesState>) async throws -> String? {
    let value = try await session.fact("line") {
      do {
        return try StrictInput.readLine().map(SessionFact.Value.text) ?? .absent
      } catch let error as InvalidUTF8 {
        return .failure(error.location)
      } catch {
        return .failure("standard input")
      }
    }
    switch value {
    case .text(let line): return line
    case .absent: return nil
    case .failure(let location): throw InvalidUTF8(where: location)
    default: throw session.unexpected(value, for: "line")
    }
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
  /// - Parameters:
  ///   - session: The session: live, recorded or replayed.
  ///   - wait: How long a page may take, with its retries.
  ///   - prompt: Written before each key is read, if any; a newline follows it at the end of
  ///     input.
  ///   - loadingIndicator: Whether to show `Loading page N…` while a page loads (erased when it
  ///     arrives): for a terminal.
  ///   - nextLine: The next key typed, `nil` at the end of input.
  /// - Throws: ``AppServiceTimeout`` when a page takes longer than `patience`.
  static func browse(
    _ session: AppSession<MoviesIntent, MoviesState>,
    patience wait: Duration,
    prompt: String? = nil,
    loadingIndicator: Bool = false,
    nextLine: () async throws -> String?
  ) async throws {
    func load(_ intent: MoviesIntent) async throws {
      let page = session.service.currentState.request(for: intent)?.page
      if loadingIndicator, let page { StandardOutput.write("Loading page \(page)…") }
      let state = try await session.perform(intent, timeout: wait, finishing: true) {
        !$0.isLoading
      }
      if loadingIndicator, page != nil { StandardOutput.write("\r\u{1B}[K") }
      render(state)
    }
    try await load(.loadNextPage)
    while true {
      if let prompt { StandardOutput.write(prompt) }
      guard let line = try await nextLine() else {
        if prompt != nil { StandardOutput.print("") }
        return
      }
      let state = session.service.currentState
      let key: BrowseKey
      do {
        key = try BrowseKey.parse(line)
      } catch {
        StandardOutput.flush()
        printError("movies: \(error)")
        continue
      }
      switch key {
      case .next:
        guard !state.isAtEnd else {
          StandardOutput.print("That was the last page. r(efresh) to start over, q(uit) to leave.")
          continue
        }
        try await load(.loadNextPage)
      case .refresh:
        try await load(.refresh)
      case .retry:
        guard state.phase == .error else {
          StandardOutput.print("Nothing to retry.")
          continue
        }
        try await load(.retry)
      case .quit:
        return
      }
    }
  }

  static func render(_ state: MoviesState) {
    if state.phase == .error, let failure = state.failure {
      StandardOutput.print(
        "Page \(failure.request.page) failed: \(DisplayText.escaped(failure.error.description)). "
          + "t (retry) to try again."
      )
      return
    }
    let batch = state.batch
    var lines = ["", "Page \(batch.page) of \(batch.totalPages) — \(batch.totalResults) films"]
    if state.movies.isEmpty { lines.append("no movies") }
    let first = state.movies.count - batch.results.count + 1
    for (offset, movie) in batch.results.enumerated() {
      lines.append(movie.line(number: first + offset))
    }
    if state.isAtEnd { lines.append("(last page)") }
    StandardOutput.print(lines.joined(separator: "\n"))
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
      "unknown command '\(DisplayText.escaped(key))'. Keys: n(ext), r(efresh), t (retry), q(uit)."
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
