import AppSupport
import ArgumentParser
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
    discussion: RecordingOptions.help
  )

  @Option(help: "How many pages to load.")
  var pages: Int?

  @Flag(help: "Load every page.")
  var all = false

  @Flag(help: "Print the films as a JSON array (TMDB's field names).")
  var json = false

  @OptionGroup var source: SourceOptions

  @OptionGroup var recording: RecordingOptions

  func validate() throws {
    switch (pages, all) {
    case (nil, false): throw ValidationError("say how many pages: --pages N or --all")
    case (.some, true): throw ValidationError("--pages and --all exclude each other")
    case (.some(let count), false) where count < 1:
      throw ValidationError("--pages must be at least 1")
    default: break
    }
  }

  func run() async throws {
    let connection = try await Connection.open(source, recording: recording, command: "list")
    let session = connection.session
    let progress = isatty(STDERR_FILENO) == 1 && !json ? ProgressBar() : nil
    var state = session.service.currentState
    do {
      try await reportingReplayErrors {
        while !state.isAtEnd, pages.map({ state.batch.page < $0 }) ?? true {
          state = try await session.perform(.loadNextPage, timeout: source.patience) {
            !$0.isLoading
          }
          if let failure = state.failure {
            throw PageLoadError(failure: failure, url: connection.url)
          }
          progress?.show(
            page: state.batch.page,
            of: pages.map { min($0, state.batch.totalPages) } ?? state.batch.totalPages
          )
        }
      }
    } catch {
      progress?.clear()
      if let server = connection.server { await server.stop() }
      throw error
    }
    progress?.clear()
    try await connection.finish()
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(state.movies), as: UTF8.self))
    } else {
      for (index, movie) in state.movies.enumerated() { print(movie.line(number: index + 1)) }
    }
  }
}

/// A progress bar on standard error, redrawn in place.
struct ProgressBar {
  func show(page: Int, of total: Int) {
    let width = 30
    let filled = total > 0 ? min(width, page * width / total) : width
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    FileHandle.standardError.write(Data("\r[\(bar)] page \(page) of \(total)".utf8))
  }

  func clear() {
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
