import AppSupport
public import ArgumentParser
import CascadeStreams
import CommandLineSupport
import Foundation
import MoviesCore
import MoviesServer

/// Where the films come from: another server (`--api`), or the embedded one with its catalog
/// and faults; and how pages are asked for.
struct SourceOptions: ParsableArguments {
  @Option(help: "The base URL of another catalog server (e.g. http://127.0.0.1:8080).")
  var api: String?

  @Option(name: .customLong("api-key"), help: "A TMDB v3 API key, sent as api_key.")
  var apiKey: String?

  @OptionGroup var architectureOption: ArchitectureOption

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds a page may take before it fails (0.001 to 3600; inf: no limit).",
      valueName: "seconds"
    )
  )
  var timeout: Double = 10

  /// The accepted `--timeout`s, in seconds, besides `inf`.
  static let timeoutRange = 0.001...3600.0

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      """
      How many times to ask again for a page (0 to 10; default 0: never). Asked again: a page \
      that timed out, a server that could not be reached, a connection that broke off (a reply \
      cut short), HTTP 5xx, and HTTP 429 (too many requests). The waits in between are 0.5 s, \
      1 s, 2 s… except after a 429 with Retry-After (seconds or an HTTP-date), which waits \
      exactly as long as the server asks, up to --max-retry-after; a 429 asking for longer is \
      not retried. Never asked again: other HTTP statuses, a malformed page, a reply that is \
      not valid HTTP (or a redirect loop), not JSON or over --max-body-bytes.
      """,
      valueName: "n"
    )
  )
  var retries: Int = 0

  @Option(
    name: .customLong("max-retry-after"),
    parsing: .unconditional,
    help: ArgumentHelp(
      "The longest Retry-After wait honoured, in seconds (0 to 86400).",
      valueName: "seconds"
    )
  )
  var maxRetryAfter: Double = 60

  @Option(
    name: .customLong("max-body-bytes"),
    parsing: .unconditional,
    help: ArgumentHelp(
      "The largest reply accepted for a page, in bytes (1 to 1073741824; default 10 MiB); a "
        + "larger one is refused without being read on.",
      valueName: "bytes"
    )
  )
  var maxBodyBytes: Int = MoviesClient.defaultMaxBodyBytes

  @Option(
    help: ArgumentHelp(
      "The HTTP client: \(MoviesClient.Transport.allCases.map(\.rawValue).joined(separator: " or ")) "
        + "(default: \(MoviesClient.Transport.platformDefault)).",
      valueName: "client"
    )
  )
  var transport: MoviesClient.Transport = .platformDefault

  @OptionGroup var server: ServerOptions

  /// The architecture of the paging service.
  var architecture: Architecture { architectureOption.architecture }

  func validate() throws {
    try NumericOption.check(
      seconds: timeout,
      of: "--timeout",
      in: Self.timeoutRange,
      infinityMeansNoLimit: true
    )
    try NumericOption.check(retries, of: "--retries", in: 0...10)
    try NumericOption.check(maxRetryAfter, of: "--max-retry-after", atLeast: 0, atMost: 86_400)
    try NumericOption.check(maxBodyBytes, of: "--max-body-bytes", in: 1...1_073_741_824)
    if api != nil, server.isCustomized {
      throw ValidationError(
        "--catalog, --fail-rate and --latency apply to the embedded server, not to --api"
      )
    }
  }

  /// `--timeout` as a duration, saturating: `inf`, or 100 years or more, is the longest delay a
  /// scheduler waits for, which never comes (`Duration.longestDelay`).
  var pageTimeout: Duration {
    Self.saturating(seconds: timeout) ?? .longestDelay
  }

  /// A delay in seconds as a `Duration`, saturating: `nil` for NaN (a caller that took it from a
  /// user reports it), zero for a negative one, and `Duration.longestDelay` (100 years, which a
  /// scheduler never reaches) for one at least that long, infinity included.
  static func saturating(seconds: Double) -> Duration? {
    if seconds.isNaN { return nil }
    if seconds <= 0 { return .zero }
    let longest = Double(Duration.longestDelay.components.seconds)
    if seconds >= longest { return .longestDelay }
    let whole = seconds.rounded(.down)
    return .seconds(Int64(whole)) + .nanoseconds(Int64(((seconds - whole) * 1e9).rounded()))
  }

  /// `--max-retry-after` as a duration.
  var retryAfterLimit: Duration {
    .milliseconds(Int64((maxRetryAfter * 1000).rounded(.down)))
  }

  /// How long a page may take, with its retries and their waits, before giving up on it (at
  /// most the longest delay: with no limit on a page, no limit on the wait).
  var patience: Duration {
    min(
      pageTimeout * (retries + 1) + .milliseconds(500 << retries) + retryAfterLimit * retries
        + .seconds(5),
      .longestDelay
    )
  }

  /// The page source, its client, and the embedded server when there is no `--api`, started.
  ///
  /// - Throws: `ExitCode` after printing why, when the catalog cannot be loaded (65, 66) or the
  ///   server cannot start (74); ``MoviesClient/InvalidURL`` for a bad `--api`.
  func connect() async throws -> (
    source: any MoviePageSource, client: MoviesClient, server: MovieCatalogServer?
  ) {
    let timeout = pageTimeout
    var embedded: MovieCatalogServer?
    let client: MoviesClient
    if let api {
      client = try MoviesClient(
        baseURL: api,
        apiKey: apiKey,
        timeout: timeout,
        maxBodyBytes: maxBodyBytes,
        transport: transport
      )
    } else {
      let server = MovieCatalogServer(catalog: try server.catalogOrExit(), faults: server.faults)
      let url: URL
      do {
        url = try await server.start()
      } catch {
        throw fail("cannot start the catalog server: \(error)", .ioError)
      }
      embedded = server
      client = try MoviesClient(
        baseURL: url.absoluteString,
        timeout: timeout,
        maxBodyBytes: maxBodyBytes,
        transport: transport
      )
    }
    guard retries > 0 else { return (client, client, embedded) }
    let source = client.resilient(
      timeout: timeout,
      attempts: retries + 1,
      backoff: .exponential(initial: .milliseconds(500)),
      maxRetryAfter: retryAfterLimit,
      scheduler: ConcurrentDispatchQueueScheduler(),
      onRetry: { retry in printError("movies: \(retry.notice)") }
    )
    return (source, client, embedded)
  }
}

extension MoviesClient.Transport: ExpressibleByArgument {
  /// Parses `urlsession` or `async-http-client`.
  init?(argument: String) {
    self.init(rawValue: argument.lowercased())
  }

  /// The names, for `--help`.
  static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension ResilientPageSource.Retry {
  /// What the user reads on standard error before the wait: the failure, the wait and the
  /// attempt.
  var notice: String {
    let reason = DisplayText.escaped(error.description)
    let wait =
      serverAsked ? "\(MoviesError.seconds(delay)), as it asked" : MoviesError.seconds(delay)
    return "page \(page): \(reason); asking again in \(wait) (attempt \(attempt) of \(attempts))"
  }
}

/// `--record FILE` and `--replay FILE` (a session recorded to a file, or run again from one),
/// with `movies`' help.
typealias RecordingOptions = CommandLineSupport.RecordingOptions<MoviesRecordingHelp>

/// What `--help` says about recordings.
enum MoviesRecordingHelp: RecordingHelp {
  static let record =
    "Record this session to FILE (created or replaced) while it runs as usual."
  static let replay =
    "Run the session recorded in FILE again instead of asking a server: the same output, "
    + "without any request."

  static let discussion = """
    Recording: `--record FILE` records the session (the keys typed, the server's address, the \
    paging service's inputs with every page and failure) to FILE, a JSON Lines file, while it \
    runs as usual. `--replay FILE` runs it again from FILE: it starts no server, makes no HTTP \
    request and reads no keys, and prints what the recorded session printed. Replay with the \
    command and options that recorded it (the same --architecture, and --pages, --all or \
    --json for list; the server options are not used): a recording made on one architecture is \
    replayed on that architecture only.
    Exit status: as without a recording when a page fails (the same status as the recorded \
    run); 64 for a bad command line (such as --record with --replay); 65 when FILE is damaged \
    (a truncated or corrupt line, named), of a newer format version, of another app, \
    architecture or command, or does not match this run; 66 when FILE does not exist or cannot \
    be read (a directory); 74 when the recording cannot be created or written (a device, a \
    pipe, a directory).
    """
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
    inspection: InspectOptions,
    command: String
  ) async throws -> Connection {
    if inspection.inspect, recording.replay != nil {
      printError("movies: --inspect shows a live session: it excludes --replay")
      throw ExitCode(ExitStatus.usage.rawValue)
    }
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
    let inspector = inspection.makeInspector(
      app: "movies",
      architecture: source.architecture,
      command: command
    )
    let session = makeMoviesSession(
      source.architecture,
      client: pageSource,
      command: command,
      recordingTo: recording.record.map { URL(fileURLWithPath: $0) },
      inspector: inspector
    )
    if let problem = session.recordingProblem {
      if let server { await server.stop() }
      printError("movies: cannot record the session: \(problem)")
      throw ExitCode(RecordingOptions.cannotRecord)
    }
    do {
      try await inspection.start(inspector, app: "movies")
    } catch {
      if let server { await server.stop() }
      throw error
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

  @Option(
    name: .customLong("fail-rate"),
    parsing: .unconditional,
    help: "The share of pages (0…1) that answer HTTP 500."
  )
  var failRate: Double = 0

  @Option(parsing: .unconditional, help: "Milliseconds every answer waits (0 to 600000).")
  var latency: Int = 0

  @Option(help: "The seed of the failure draws.")
  var seed: UInt64 = 1

  var isCustomized: Bool { catalog != nil || failRate != 0 || latency != 0 }

  func validate() throws {
    try NumericOption.check(failRate, of: "--fail-rate", atLeast: 0, atMost: 1)
    try NumericOption.check(latency, of: "--latency", in: 0...600_000)
    if catalog?.isEmpty == true { throw ValidationError("--catalog needs a path") }
  }

  var faults: ServerFaults {
    ServerFaults(latency: .milliseconds(latency), failureRate: failRate, seed: seed)
  }

  /// The catalog: the bundled one, or `--catalog`.
  ///
  /// - Throws: `ExitCode` after printing why the file cannot be used: 66 when it does not exist
  ///   or cannot be read, 65 when it is not a catalog.
  func catalogOrExit() throws -> MovieCatalog {
    do {
      guard let catalog else { return try MovieCatalog.bundled() }
      return try MovieCatalog.load(contentsOf: URL(fileURLWithPath: catalog))
    } catch {
      throw fail(error.description, error.isUnreadable ? .noInput : .dataError)
    }
  }
}

/// Writes `text` to standard error, as one line.
func printError(_ text: String) {
  StandardError.print(text)
}

/// Prints `movies: message` on standard error, and returns the exit status to end with.
func fail(_ message: String, _ status: ExitStatus) -> ExitCode {
  StandardOutput.flush()
  printError("movies: " + DisplayText.escaped(message))
  return ExitCode(status.rawValue)
}

/// A failed page, as the user reads it: the page, the server and why.
struct PageLoadError: Error, CustomStringConvertible {
  var failure: PageFailure
  var url: String
  /// The longest `Retry-After` honoured, when pages are retried.
  var retryAfterLimit: Duration?

  var description: String {
    var text = "page \(failure.request.page) from \(url): \(failure.error)"
    if case .tooManyRequests(let wait?) = failure.error, let limit = retryAfterLimit, wait > limit {
      text += ", longer than --max-retry-after (\(MoviesError.seconds(limit))): not retried"
    }
    return DisplayText.escaped(text)
  }

  /// The exit status: 65 for a reply that is not a page, 75 for a failure worth trying again
  /// later, 1 for another HTTP status.
  var status: ExitStatus { failure.error.exitStatus }
}

extension MoviesError {
  /// How `movies` ends when a page fails with this error.
  var exitStatus: ExitStatus {
    switch self {
    case .malformedBody, .malformedReply, .notJSON, .bodyTooLarge: .dataError
    case .transport, .timeout, .truncatedBody, .tooManyRequests: .temporaryFailure
    case .httpStatus(let status): status >= 500 ? .temporaryFailure : .failure
    }
  }
}

extension Movie {
  /// One line: the number in the list, the title (its control characters escaped), the year and
  /// the vote.
  func line(number: Int) -> String {
    let year = year.map { " (\($0))" } ?? ""
    let vote = voteAverage > 0 ? String(format: "  %.1f", voteAverage) : ""
    return "\(String(number).leftPadded(to: 4)). \(DisplayText.escaped(title))\(year)\(vote)"
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
