import AppSupport
import ArgumentParser
import CascadeStreams
import Foundation
import MoviesCore
import MoviesServer

/// Where the films come from: another server (`--api`), or the embedded one with its catalog
/// and faults.
struct SourceOptions: ParsableArguments {
  @Option(help: "The base URL of another catalog server (e.g. http://127.0.0.1:8080).")
  var api: String?

  @Option(name: .customLong("api-key"), help: "A TMDB v3 API key, sent as api_key.")
  var apiKey: String?

  @Option(
    help: "The architecture of the paging service: store, reactor or feedback.",
    transform: parseArchitecture
  )
  var architecture: Architecture = .store

  @Option(help: "Seconds a page may take before it fails (inf: no limit).")
  var timeout: Double = 10

  @Option(
    help: """
      How many times to ask again for a page that timed out, could not be reached or got \
      HTTP 5xx, waiting 0.5 s, 1 s, 2 s… in between.
      """
  )
  var retries: Int = 0

  @OptionGroup var server: ServerOptions

  func validate() throws {
    guard !timeout.isNaN else { throw ValidationError("--timeout must be a number of seconds") }
    guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    guard (0...10).contains(retries) else { throw ValidationError("--retries must be within 0…10") }
    if api != nil, server.isCustomized {
      throw ValidationError(
        "--catalog, --fail-rate and --latency apply to the embedded server, not to --api"
      )
    }
  }

  /// `--timeout` as a duration, saturating: `inf`, or 100 years or more, is the longest delay a
  /// scheduler waits for, which never comes (`Duration.longestDelay`).
  var pageTimeout: Duration {
    Duration.saturating(seconds: timeout) ?? .longestDelay
  }

  /// How long a page may take, with its retries, before giving up on it (at most the longest
  /// delay: with no limit on a page, no limit on the wait).
  var patience: Duration {
    min(
      pageTimeout * (retries + 1) + .milliseconds(500 << retries) + .seconds(5),
      .longestDelay
    )
  }

  /// The page source, its client, and the embedded server when there is no `--api`, started.
  func connect() async throws -> (
    source: any MoviePageSource, client: MoviesClient, server: MovieCatalogServer?
  ) {
    let timeout = pageTimeout
    var embedded: MovieCatalogServer?
    let client: MoviesClient
    if let api {
      client = try MoviesClient(baseURL: api, apiKey: apiKey, timeout: timeout)
    } else {
      let server = MovieCatalogServer(catalog: try server.loadCatalog(), faults: server.faults)
      let url = try await server.start()
      embedded = server
      client = try MoviesClient(baseURL: url.absoluteString, timeout: timeout)
    }
    guard retries > 0 else { return (client, client, embedded) }
    let source = client.resilient(
      timeout: timeout,
      attempts: retries + 1,
      backoff: .exponential(initial: .milliseconds(500)),
      scheduler: ConcurrentDispatchQueueScheduler()
    )
    return (source, client, embedded)
  }
}

/// `--record FILE` and `--replay FILE`: a session recorded to a file, or run again from one.
struct RecordingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Record this session to FILE (created or replaced) while it runs as usual.",
      valueName: "FILE"
    )
  )
  var record: String?

  @Option(
    help: ArgumentHelp(
      "Run the session recorded in FILE again instead of asking a server: the same output, "
        + "without any request.",
      valueName: "FILE"
    )
  )
  var replay: String?

  /// The exit status when the recording cannot be created, or records of the session could not
  /// be written.
  static let cannotRecord = ExitStatus.ioError.rawValue

  /// What `--help` says about recordings.
  static let help = """
    Recording: `--record FILE` records the session (the keys typed, the server's address, the \
    paging service's inputs with every page and failure) to FILE, a JSON Lines file, while it \
    runs as usual. `--replay FILE` runs it again from FILE: it starts no server, makes no HTTP \
    request and reads no keys, and prints what the recorded session printed. Replay with the \
    command and options that recorded it (the same --architecture, and --pages, --all or \
    --json for list; the server options are not used): a recording made on one architecture is \
    replayed on that architecture only.
    Exit status: 0 on success; 1 when a page fails (as without a recording); 64 for a bad \
    command line (such as --record with --replay); 65 when FILE is damaged (a truncated or \
    corrupt line, named), of a newer format version, of another app, architecture or command, \
    or does not match this run; 66 when FILE does not exist; 74 when the recording cannot \
    be created or written.
    """

  func validate() throws {
    if record != nil, replay != nil {
      throw ValidationError("--record and --replay exclude each other")
    }
    if record?.isEmpty == true { throw ValidationError("--record needs a path") }
    if replay?.isEmpty == true { throw ValidationError("--replay needs a path") }
  }
}

/// A paging session: the service's session, the address of its server, and the embedded server
/// to stop at the end, if one was started.
struct Connection {
  var session: AppSession<MoviesIntent, MoviesState>
  var url: String
  var server: MovieCatalogServer?

  /// The session of `command`: replayed from `--replay` (no server, no request), or live on the
  /// page source of `source` and recorded to `--record`.
  ///
  /// - Throws: `ExitCode` after printing why, when the recording cannot be replayed (65, 66) or
  ///   created (74); what ``SourceOptions/connect()`` throws.
  static func open(
    _ source: SourceOptions,
    recording: RecordingOptions,
    command: String
  ) async throws -> Connection {
    if let replay = recording.replay {
      let session: AppSession<MoviesIntent, MoviesState>
      do {
        session = try replayMoviesSession(
          source.architecture,
          contentsOf: URL(fileURLWithPath: replay),
          command: command
        )
      } catch {
        printError("movies: \(error)")
        throw ExitCode(error.exitCode)
      }
      return Connection(
        session: session,
        url: try await address(of: session, live: ""),
        server: nil
      )
    }
    let (pageSource, client, server) = try await source.connect()
    let session = makeMoviesSession(
      source.architecture,
      client: pageSource,
      command: command,
      recordingTo: recording.record.map { URL(fileURLWithPath: $0) }
    )
    if let problem = session.recordingProblem {
      if let server { await server.stop() }
      printError("movies: cannot record the session: \(problem)")
      throw ExitCode(RecordingOptions.cannotRecord)
    }
    let url = try await address(of: session, live: client.baseURL.absoluteString)
    return Connection(session: session, url: url, server: server)
  }

  /// The server's address: `live`, or the recorded one in a replay.
  private static func address(
    of session: AppSession<MoviesIntent, MoviesState>,
    live: String
  ) async throws -> String {
    try await reportingReplayErrors {
      let value = try await session.fact("url") { .text(live) }
      guard case .text(let url) = value else { throw session.unexpected(value, for: "url") }
      return url
    }
  }

  /// Stops the embedded server, then ends the session: a replay replays what the recording holds
  /// after the last page and checks that it holds nothing more; a recording checks that every
  /// record was written.
  ///
  /// - Throws: `ExitCode` 65 after printing why, when the replay does not match the recording; 74
  ///   when records were lost.
  func finish() async throws {
    if let server { await server.stop() }
    try await reportingReplayErrors { try await session.finish() }
    if let problem = session.recordingProblem {
      printError("movies: the recording is incomplete: \(problem)")
      throw ExitCode(RecordingOptions.cannotRecord)
    }
  }
}

/// Runs `body`; a recording that does not match the run is reported on standard error, and ends
/// the command with its exit status.
@discardableResult
func reportingReplayErrors<T>(_ body: () async throws -> T) async throws -> T {
  do {
    return try await body()
  } catch let error as SessionReplayError {
    printError("movies: \(error)")
    throw ExitCode(error.exitCode)
  }
}

/// The catalog and faults of a server.
struct ServerOptions: ParsableArguments {
  @Option(help: "A catalog file of your own: a JSON array of films, or CSV.")
  var catalog: String?

  @Option(name: .customLong("fail-rate"), help: "The share of pages (0…1) that answer HTTP 500.")
  var failRate: Double = 0

  @Option(help: "Milliseconds every answer waits.")
  var latency: Int = 0

  @Option(help: "The seed of the failure draws.")
  var seed: UInt64 = 1

  var isCustomized: Bool { catalog != nil || failRate != 0 || latency != 0 }

  func validate() throws {
    guard (0...1).contains(failRate) else {
      throw ValidationError("--fail-rate must be within 0…1")
    }
    guard latency >= 0 else { throw ValidationError("--latency must not be negative") }
    if catalog?.isEmpty == true { throw ValidationError("--catalog needs a path") }
  }

  var faults: ServerFaults {
    ServerFaults(latency: .milliseconds(latency), failureRate: failRate, seed: seed)
  }

  func loadCatalog() throws -> MovieCatalog {
    guard let catalog else { return try MovieCatalog.bundled() }
    return try MovieCatalog.load(contentsOf: URL(fileURLWithPath: catalog))
  }
}

private func parseArchitecture(_ text: String) throws -> Architecture {
  guard let architecture = Architecture(rawValue: text.lowercased()) else {
    throw ValidationError("unknown architecture '\(text)': use store, reactor or feedback")
  }
  return architecture
}

/// Writes `text` to standard error.
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// A failure of the paging service, shown as is.
struct PageLoadError: Error, CustomStringConvertible {
  var failure: PageFailure
  var url: String

  var description: String {
    "page \(failure.request.page) from \(url): \(failure.error)"
  }
}

extension Movie {
  /// One line: the number in the list, the title, the year and the vote.
  func line(number: Int) -> String {
    let year = year.map { " (\($0))" } ?? ""
    let vote = voteAverage > 0 ? String(format: "  %.1f", voteAverage) : ""
    return "\(String(number).leftPadded(to: 4)). \(title)\(year)\(vote)"
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
