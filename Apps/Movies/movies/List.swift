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

/// `movies list`: prints the films of the first pages, or of all of them.
struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Prints the films of the first pages (--pages N) or of every page (--all).",
    discussion: """
      When a page fails, the films of the pages loaded before it are printed, then why it \
      failed, on standard error. A catalog without films prints "no movies" ([] with --json).

      \(RecordingOptions.help)

      \(ExitStatus.helpText)

      A failed page ends list with 65 when the reply is not a page (not valid HTTP, a \
      redirect loop, malformed, not JSON, over --max-body-bytes, a number out of range, an \
      empty page before the last), 75 when it is worth trying later (a timeout, a server that \
      could not be reached, a reply cut short, HTTP 5xx or 429), and 1 for another HTTP \
      status. --all loads at most \(List.maxPages) pages: when the server has more, the films \
      of the first \(List.maxPages) are printed, and list says so on standard error and ends \
      with 1. A film whose id was listed before is listed once (the first one kept).
      """
  )

  /// The most pages `list` loads, with `--pages` as with `--all`.
  static let maxPages = 500

  @Option(
    parsing: .unconditional,
    help: "How many pages to load (1 to \(List.maxPages))."
  )
  var pages: Int?

  @Flag(help: "Load every page (at most \(List.maxPages)).")
  var all = false

  @Flag(help: "Print the films as a JSON array (TMDB's field names), titles exactly as sent.")
  var json = false

  @OptionGroup var source: SourceOptions

  @OptionGroup var recording: RecordingOptions

  @OptionGroup var inspection: InspectOptions

  func validate() throws {
    switch (pages, all) {
    case (nil, false): throw ValidationError("say how many pages: --pages N or --all")
    case (.some, true): throw ValidationError("--pages and --all exclude each other")
    case (.some(let count), false):
      try NumericOption.check(count, of: "--pages", in: 1...Self.maxPages)
    default: break
    }
  }

  func run() async throws {
    let connection = try await Connection.open(
      source,
      recording: recording,
      inspection: inspection,
      command: "list"
    )
    let session = connection.session
    let progress = isatty(STDERR_FILENO) == 1 && !json ? ProgressBar() : nil
    var state = session.service.currentState
    var failure: String?
    var status = ExitStatus.ok
    do {
      try await reportingReplayErrors {
        // Every page the loop asks for is bounded: the server's `total_pages` cannot make it
        // run on past `maxPages`.
        while !state.isAtEnd, state.batch.page < (pages ?? Self.maxPages) {
          state = try await session.perform(
            .loadNextPage,
            timeout: source.patience,
            finishing: true
          ) {
            !$0.isLoading
          }
          if let pageFailure = state.failure {
            let error = PageLoadError(
              failure: pageFailure,
              url: connection.url,
              retryAfterLimit: source.retries > 0 ? source.retryAfterLimit : nil
            )
            (failure, status) = (error.description, error.status)
            break
          }
          progress?.show(
            page: state.batch.page,
            of: min(pages ?? Self.maxPages, state.batch.totalPages)
          )
        }
      }
    } catch let timeout as AppServiceTimeout {
      // The page outlived its time and its retries: the pages before it are still printed.
      state = session.service.currentState
      (failure, status) = (
        "page \(state.batch.page + 1) from \(connection.url): \(timeout)", .temporaryFailure
      )
    } catch {
      progress?.clear()
      if let server = connection.server { await server.stop() }
      throw error
    }
    progress?.clear()
    if failure == nil, all, !state.isAtEnd {
      (failure, status) = (
        "stopped after \(Self.maxPages) pages, the most --all loads: \(connection.url) has "
          + "\(state.batch.totalPages)",
        .failure
      )
    }
    try await connection.finish()
    print(state.movies, failed: failure != nil)
    if let failure { throw fail(failure, status) }
  }

  /// Prints `movies`: the films, or that there are none (nothing when a page failed first).
  func print(_ movies: [Movie], failed: Bool) {
    if movies.isEmpty && failed { return }
    if json && movies.isEmpty {
      // The encoder writes an empty array over three lines.
      StandardOutput.print("[]")
    } else if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let data = (try? encoder.encode(movies)) ?? Data("[]".utf8)
      StandardOutput.print(String(decoding: data, as: UTF8.self))
    } else if movies.isEmpty {
      StandardOutput.print("no movies")
    } else {
      let lines = movies.enumerated().map { $1.line(number: $0 + 1) }
      StandardOutput.print(lines.joined(separator: "\n"))
    }
  }
}

/// A progress bar on standard error, redrawn in place.
struct ProgressBar {
  func show(page: Int, of total: Int) {
    let width = 30
    let filled = total > 0 ? min(width, page * width / total) : width
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    StandardError.write("\r[\(bar)] page \(page) of \(total)")
  }

  func clear() {
    StandardError.write("\r\u{1B}[K")
  }
}
