import AppSupport
import ArgumentParser
import CascadeStreams
import CommandLineSupport
import Foundation
import MoviesCore
import MoviesServer

/// `movies bench`: how long a page takes through the app, per HTTP client.
struct Bench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measures how long a page takes, through the app and through its HTTP client alone.",
    discussion: """
      Each round pages through the whole catalog (its first \(List.maxPages) pages, at most) \
      with a fresh paging service (the time from \
      the intent to the state with the page), then asks the client alone for every page. The \
      connection is kept from page to page, as curl keeps it for several URLs, so the figures \
      compare with `curl -w '%{time_total}'` for the same pages (Apps/Movies/Scripts/latency.sh \
      runs both against `movies serve`). Build with -c release for figures worth quoting.

      \(ExitStatus.helpText)
      """
  )

  @Option(help: "The base URL of a catalog server (default: the embedded one).")
  var api: String?

  @Option(
    parsing: .unconditional,
    help: "How many times to page through the catalog (1 to 1000)."
  )
  var rounds: Int = 5

  @Option(
    help: ArgumentHelp(
      "The HTTP clients to measure (repeatable; default: every one).",
      valueName: "client"
    )
  )
  var transport: [MoviesClient.Transport] = []

  @OptionGroup var architecture: ArchitectureOption

  func validate() throws {
    try NumericOption.check(rounds, of: "--rounds", in: 1...1000)
  }

  func run() async throws {
    var server: MovieCatalogServer?
    let base: String
    if let api {
      base = api
    } else {
      let embedded = MovieCatalogServer(catalog: try MovieCatalog.bundled())
      do {
        base = try await embedded.start().absoluteString
      } catch {
        throw fail("\(error)", .ioError)
      }
      server = embedded
    }
    do {
      try await measure(base)
    } catch {
      if let server { await server.stop() }
      throw error
    }
    if let server { await server.stop() }
  }

  /// Measures every client asked for against `base`, and prints the table.
  func measure(_ base: String) async throws {
    StandardOutput.print(
      "\(rounds) rounds through every page of \(DisplayText.escaped(base)), on the "
        + "\(architecture.architecture) architecture; milliseconds per page."
    )
    StandardOutput.print("")
    StandardOutput.print("| HTTP client | path | pages | median | p90 | min | max |")
    StandardOutput.print("| --- | --- | --: | --: | --: | --: | --: |")
    for transport in transport.isEmpty ? MoviesClient.Transport.allCases : transport {
      let client = try MoviesClient(baseURL: base, timeout: .seconds(60), transport: transport)
      var app: [Duration] = []
      var alone: [Duration] = []
      do {
        for _ in 0..<rounds {
          app += try await Self.pageThroughApp(client, architecture.architecture)
          alone += try await Self.pageThroughClient(client)
        }
      } catch let error as MoviesError {
        throw fail("\(transport): \(error)", error.exitStatus)
      }
      StandardOutput.print(Self.row(transport, "app (\(architecture.architecture))", app))
      StandardOutput.print(Self.row(transport, "client alone", alone))
    }
  }

  /// The time of each page through a fresh paging service, from the intent to its page.
  static func pageThroughApp(
    _ client: MoviesClient,
    _ architecture: Architecture
  ) async throws -> [Duration] {
    let movies = makeMovies(architecture, client: client)
    let clock = ContinuousClock()
    var times: [Duration] = []
    var state = movies.currentState
    // At most `List.maxPages` pages, however many the server says it has.
    while !state.isAtEnd, state.batch.page < List.maxPages {
      let start = clock.now
      movies.send(.loadNextPage)
      state = try await movies.waitForState(timeout: .seconds(30)) { !$0.isLoading }
      times.append(clock.now - start)
      if let failure = state.failure { throw failure.error }
    }
    return times
  }

  /// The time of each page asked of the client alone.
  static func pageThroughClient(_ client: MoviesClient) async throws -> [Duration] {
    let clock = ContinuousClock()
    var times: [Duration] = []
    var page = 1
    var total = 1
    while page <= min(total, List.maxPages) {
      let start = clock.now
      let loaded = try await load(page, from: client)
      times.append(clock.now - start)
      total = loaded.totalPages
      page += 1
    }
    return times
  }

  /// Page `number` from `client`.
  static func load(
    _ number: Int,
    from client: MoviesClient
  ) async throws(MoviesError)
    -> MoviePage
  {
    let result = await withCheckedContinuation { continuation in
      let once = LockedValue(false)
      let resume: @Sendable (Result<MoviePage, MoviesError>) -> Void = { result in
        let first = once.withLock { done in
          defer { done = true }
          return !done
        }
        if first { continuation.resume(returning: result) }
      }
      _ = client.page(number).subscribe(
        onNext: { resume(.success($0)) },
        onError: { resume(.failure($0)) }
      )
    }
    return try result.get()
  }

  /// A row of the table: the median, 90th percentile, fastest and slowest page, in ms.
  static func row(
    _ transport: MoviesClient.Transport,
    _ path: String,
    _ times: [Duration]
  )
    -> String
  {
    let sorted = times.sorted()
    func ms(_ duration: Duration) -> String {
      let (seconds, attoseconds) = duration.components
      return String(format: "%.3f", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
    let columns = [
      sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 9 / 10)],
      sorted[0], sorted[sorted.count - 1],
    ].map(ms)
    return "| \(transport) | \(path) | \(sorted.count) | " + columns.joined(separator: " | ") + " |"
  }
}
