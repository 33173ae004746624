import AppSupport
import AppTestSupport
import CascadeStreams
import Foundation
import MoviesCore
import MoviesServer
import Testing

/// Issue 20, end to end: the built `movies` against a catalog server with injected faults (in
/// this process, on loopback), as a user runs it — the exit status, the line on standard error,
/// and what standard output keeps.
@Suite struct MoviesExecutableTests {
  static let executable = builtProduct(named: "movies")

  /// Runs `movies`; killed after 60 seconds.
  ///
  /// `list` and `browse` get `--timeout 50` unless told: the servers of these tests run in the
  /// test process, which a full parallel test run can keep busy for longer than the default 10 s
  /// (the timeout is a safety net, never what a test waits for).
  static func movies(
    _ arguments: [String],
    input: ChildInput = .text(""),
    timeout: Duration = .seconds(60)
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the movies product first")
    let patient =
      ["list", "browse"].contains(arguments.first)
        && !arguments.contains { $0.hasPrefix("--timeout") }
      ? arguments + ["--timeout", "50"] : arguments
    let run = try await runChild(executable, patient, input: input, timeout: timeout)
    #expect(!run.timedOut && !run.signalled, "movies \(arguments): \(run.summary)")
    return run
  }

  /// The lines `list` prints for films `range` of ``MovieCatalog/small``.
  static func lines(_ range: ClosedRange<Int>) -> String {
    range.map { "\(String($0).leftPadded(4)). Film \($0) (2001)  7.0\n" }.joined()
  }

  /// A file of `contents` in a fresh directory, removed afterwards.
  static func withFile<T>(
    named name: String,
    _ contents: Data,
    _ body: (String) async throws -> T
  ) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("movies-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(name)
    try contents.write(to: file)
    return try await body(file.path)
  }

  // MARK: - list keeps the pages it loaded

  /// Proves that a malformed page 3 leaves the films of pages 1 and 2 on standard output, in
  /// text and JSON, with the error after them on standard error and status 65, on every
  /// architecture.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func aMalformedPageKeepsThePagesLoadedBeforeIt(_ architecture: Architecture) async throws {
    try await withServer(faults: ServerFaults(malformedPages: [3])) { server, url in
      let arguments = ["list", "--all", "--api", url, "--architecture", architecture.rawValue]
      let text = try await Self.movies(arguments)
      #expect(text.status == 65, "\(text.summary)")
      #expect(text.outputText == Self.lines(1...40))
      #expect(
        text.errorText
          == "movies: page 3 from \(url): the server sent a malformed page: not JSON\n"
      )
      let json = try await Self.movies(arguments + ["--json"])
      #expect(json.status == 65, "\(json.summary)")
      let films = try JSONDecoder().decode([Movie].self, from: json.output)
      #expect(films.map(\.id) == Array(1...40))
      #expect(server.requestedPages == [1, 2, 3, 1, 2, 3])
    }
  }

  // MARK: - a message of its own for each bad reply

  /// A reply that is not a page, and what `movies list` says about it.
  struct BadReply: Sendable, CustomTestStringConvertible {
    var name: String
    var faults: ServerFaults
    var options: [String] = []
    var status: Int32
    /// The message after `movies: page 2 from URL: ` (`HALF` and `SIZE`: half the page's bytes,
    /// and all of them).
    var message: String

    var testDescription: String { name }

    static let all = [
      BadReply(
        name: "truncated body",
        faults: ServerFaults(disconnectingPages: [2: 1]),
        status: 75,
        message: "the reply was cut short: the connection closed after HALF of the SIZE bytes "
          + "announced"
      ),
      BadReply(
        name: "body over --max-body-bytes, announced",
        faults: ServerFaults(oversizedPages: [2: .init(bytes: 100_000)]),
        options: ["--max-body-bytes", "50000"],
        status: 65,
        message: "the reply is larger than 50000 bytes, the most a page may have"
      ),
      BadReply(
        name: "body over --max-body-bytes, in chunks",
        faults: ServerFaults(oversizedPages: [2: .init(bytes: 100_000, announced: false)]),
        options: ["--max-body-bytes", "50000"],
        status: 65,
        message: "the reply is larger than 50000 bytes, the most a page may have"
      ),
      BadReply(
        name: "body over the default 10 MiB",
        faults: ServerFaults(oversizedPages: [2: .init(bytes: 11 * 1024 * 1024)]),
        status: 65,
        message: "the reply is larger than 10485760 bytes, the most a page may have"
      ),
      BadReply(
        name: "HTML instead of JSON",
        faults: ServerFaults(htmlPages: [2]),
        status: 65,
        message: "the server sent text/html; charset=utf-8, not JSON"
      ),
    ]
  }

  /// Proves that each bad reply gets its own one-line message and exit status, after the films
  /// of page 1, through each HTTP client.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: BadReply.all,
    MoviesClient.Transport.allCases
  )
  func eachBadReplyHasItsOwnMessage(
    _ reply: BadReply,
    _ transport: MoviesClient.Transport
  ) async throws {
    try await withServer(faults: reply.faults) { _, url in
      let run = try await Self.movies(
        ["list", "--all", "--api", url, "--transport", transport.rawValue] + reply.options
      )
      #expect(run.status == reply.status, "\(run.summary)")
      #expect(run.outputText == Self.lines(1...20))
      // The server sends half of the page's bytes.
      let size = try JSONEncoder().encode(MovieCatalog.small.page(2)).count
      let message = reply.message
        .replacingOccurrences(of: "HALF", with: String(size / 2))
        .replacingOccurrences(of: "SIZE", with: String(size))
      #expect(run.errorText == "movies: page 2 from \(url): \(message)\n")
    }
  }

  /// Proves that a catalog without films says "no movies" (`[]` with `--json`), in `list` and
  /// in `browse`, with status 0.
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func anEmptyCatalogSaysNoMovies() async throws {
    try await Self.withFile(named: "empty.json", Data("[]".utf8)) { path in
      let text = try await Self.movies(["list", "--all", "--catalog", path])
      #expect(text.succeeded, "\(text.summary)")
      #expect(text.outputText == "no movies\n")
      let json = try await Self.movies(["list", "--pages", "3", "--catalog", path, "--json"])
      #expect(json.succeeded, "\(json.summary)")
      #expect(json.outputText == "[]\n", "\(json.outputText)")
      let browsed = try await Self.movies(["browse", "--catalog", path], input: .text("n\nq\n"))
      #expect(browsed.succeeded, "\(browsed.summary)")
      #expect(browsed.outputText.contains("Page 1 of 0 — 0 films\nno movies\n(last page)\n"))
      #expect(browsed.outputText.contains("That was the last page."))
    }
  }

  /// Proves that a `--catalog` file that cannot be used is named with what is wrong, on one line
  /// and without a raw `DecodingError`: 65 for a file that is not a catalog, 66 for one that is
  /// missing or a directory.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: [
      (#"[{"id": 1, "title": "A"}, {"id": 2}]"#, Int32(65), "film 2 has no 'title'"),
      (#"[{"id": "7", "title": "A"}]"#, 65, "film 1: 'id' is not a whole number"),
      (#"{"results": []}"#, 65, "is not a JSON array of films: the top level is not an array"),
      (#"[{"id": 1, "title": "#, 65, "is not valid JSON"),
    ]
  )
  func aCatalogThatDoesNotDecodeIsNamed(
    _ json: String,
    _ status: Int32,
    _ reason: String
  ) async throws {
    try await Self.withFile(named: "films.json", Data(json.utf8)) { path in
      let run = try await Self.movies(["list", "--all", "--catalog", path])
      #expect(run.status == status, "\(run.summary)")
      #expect(run.errorText == "movies: catalog \(path): \(reason)\n")
      #expect(run.output.isEmpty)
    }
    let missing = "/nonexistent-\(UUID().uuidString).json"
    let absent = try await Self.movies(["list", "--all", "--catalog", missing])
    #expect(absent.status == 66, "\(absent.summary)")
    #expect(absent.errorText == "movies: catalog \(missing): there is no such file\n")
    let directory = try await Self.movies(["list", "--all", "--catalog", "/"])
    #expect(directory.status == 66, "\(directory.summary)")
    #expect(directory.errorText == "movies: catalog /: is a directory\n")
  }

  // MARK: - HTTP 429 and Retry-After

  /// A 429 answer, how `movies list --pages 1` is told to retry it, and what happens.
  struct RateLimit: Sendable, CustomTestStringConvertible {
    var name: String
    var retryAfter: String?
    var options: [String]
    var status: Int32
    /// The requests the server saw.
    var requests: [Int]
    /// Standard error, after `movies: `, with `URL` for the server's address.
    var errors: [String]

    var testDescription: String { name }

    static let wait = "the server answered HTTP 429 (too many requests), asking to wait"

    static let all = [
      RateLimit(
        name: "Retry-After in seconds is waited for",
        retryAfter: "1",
        options: ["--retries", "1"],
        status: 0,
        requests: [1, 1],
        errors: ["page 1: \(wait) 1 s; asking again in 1 s, as it asked (attempt 2 of 2)"]
      ),
      RateLimit(
        name: "an HTTP-date that has passed means at once",
        retryAfter: "Thu, 01 Jan 1970 00:00:00 GMT",
        options: ["--retries", "3"],
        status: 0,
        requests: [1, 1],
        errors: ["page 1: \(wait) 0 s; asking again in 0 s, as it asked (attempt 2 of 4)"]
      ),
      RateLimit(
        name: "an HTTP-date past the cap is not retried",
        retryAfter: "Fri, 01 Jan 2100 00:00:00 GMT",
        options: ["--retries", "3"],
        status: 75,
        requests: [1],
        errors: []
      ),
      RateLimit(
        name: "seconds past --max-retry-after are not retried",
        retryAfter: "120",
        options: ["--retries", "3", "--max-retry-after", "60"],
        status: 75,
        requests: [1],
        errors: [
          "page 1 from URL: \(wait) 120 s, longer than --max-retry-after (60 s): not retried"
        ]
      ),
      RateLimit(
        name: "without Retry-After, the backoff",
        retryAfter: nil,
        options: ["--retries", "1"],
        status: 0,
        requests: [1, 1],
        errors: [
          "page 1: the server answered HTTP 429 (too many requests); asking again in 0.5 s "
            + "(attempt 2 of 2)"
        ]
      ),
      RateLimit(
        name: "without --retries, not retried",
        retryAfter: "1",
        options: [],
        status: 75,
        requests: [1],
        errors: ["page 1 from URL: \(wait) 1 s"]
      ),
    ]
  }

  /// Proves that HTTP 429 is retried as `--help` says: only with `--retries`, after exactly the
  /// wait Retry-After asks (seconds or an HTTP-date) when it is at most `--max-retry-after`, and
  /// not at all when it is longer; each retry is announced on standard error.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: RateLimit.all
  )
  func tooManyRequestsHonoursRetryAfter(_ limit: RateLimit) async throws {
    let faults = ServerFaults(rateLimitedPages: [1: 1], retryAfter: limit.retryAfter)
    try await withServer(faults: faults) { server, url in
      let run = try await Self.movies(["list", "--pages", "1", "--api", url] + limit.options)
      #expect(run.status == limit.status, "\(run.summary)")
      #expect(server.requestedPages == limit.requests)
      let lines = run.errorText.split(separator: "\n").map(String.init)
      if limit.name.contains("HTTP-date past the cap") {
        #expect(lines.count == 1)
        #expect(lines.first?.hasSuffix("longer than --max-retry-after (60 s): not retried") == true)
      } else {
        #expect(
          lines
            == limit.errors.map { "movies: " + $0.replacingOccurrences(of: "URL", with: url) }
        )
      }
      #expect(run.outputText == (limit.status == 0 ? Self.lines(1...20) : ""))
    }
  }

  /// Proves that `--help` says what is retried and how many times, and that 429 is among them.
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func helpSaysWhatIsRetried() async throws {
    let help = try await Self.movies(["list", "--help"])
    #expect(help.succeeded)
    let text = help.outputText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for phrase in [
      "How many times to ask again for a page (0 to 10; default 0: never).",
      "HTTP 5xx, and HTTP 429 (too many requests)",
      "exactly as long as the server asks, up to --max-retry-after; a 429 asking for longer is "
        + "not retried.",
      "--max-retry-after <seconds>", "--max-body-bytes <bytes>",
    ] {
      #expect(text.contains(phrase), "list --help lacks \(phrase)")
    }
  }

  // MARK: - browse

  /// Proves that `browse` at a terminal asks for each key with a prompt, shows a loading
  /// indicator while a page is in flight (erased when it comes), and ends the prompt with a
  /// newline at the end of input — and shows neither when its input and output are not a
  /// terminal; on every architecture.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func browseShowsAPromptAndALoadingIndicatorAtATerminal(
    _ architecture: Architecture
  ) async throws {
    let executable = try #require(Self.executable)
    try await withServer { _, url in
      let arguments = [
        "browse", "--api", url, "--architecture", architecture.rawValue, "--timeout", "50",
      ]
      let terminal = try await runChild(
        executable,
        arguments,
        input: .terminal(typing: "n\nbogus\nq\n"),
        output: .terminal
      )
      #expect(terminal.succeeded, "\(terminal.summary)")
      let screen = terminal.outputText
      #expect(screen.contains("Loading page 1…\r\u{1B}[K\nPage 1 of 3 — 45 films\n"), "\(screen)")
      #expect(screen.contains("movies> Loading page 2…\r\u{1B}[K\nPage 2 of 3 — 45 films\n"))
      #expect(screen.components(separatedBy: "movies> ").count == 4, "three prompts: \(screen)")
      #expect(
        terminal.errorText == "movies: unknown command 'bogus'. Keys: n(ext), r(efresh), "
          + "t (retry), q(uit).\n"
      )

      let piped = try await Self.movies(arguments, input: .text("n\n"))
      #expect(piped.succeeded, "\(piped.summary)")
      #expect(!piped.outputText.contains("movies> "))
      #expect(!piped.outputText.contains("Loading"))
      #expect(!piped.outputText.contains("\u{1B}"))
      #expect(piped.outputText.contains("Page 2 of 3 — 45 films"))
    }
  }

  /// Proves that a prompt left at the end of input is followed by a newline.
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func theLastPromptEndsWithANewlineAtTheEndOfInput() async throws {
    let executable = try #require(Self.executable)
    try await withServer { _, url in
      // Ctrl-D at the start of a line: the end of input at a terminal.
      let run = try await runChild(
        executable,
        ["browse", "--api", url, "--timeout", "50"],
        input: .terminal(typing: "\u{4}"),
        output: .terminal
      )
      #expect(run.succeeded, "\(run.summary)")
      #expect(run.outputText.hasSuffix("(last page)\n") == false)
      #expect(run.outputText.hasSuffix("movies> \n"), "\(run.outputText.suffix(80))")
    }
  }

  // MARK: - what all three command lines do

  /// Proves that titles with control characters are shown escaped in text (they forge no line
  /// and send no escape sequence), and exactly as sent with `--json`.
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func controlCharactersAreEscapedInTextAndExactInJSON() async throws {
    let title = "Evil\u{1B}[2J\n   2. Forged (1999)  9.9\u{7}"
    let catalog = MovieCatalog(movies: [
      Movie(id: 1, title: title, releaseDate: "2001"),
      Movie(id: 2, title: "Fine", releaseDate: "2002"),
    ])
    try await withServer(catalog: catalog) { _, url in
      let text = try await Self.movies(["list", "--all", "--api", url])
      #expect(text.succeeded, "\(text.summary)")
      #expect(
        text.outputText
          == #"   1. Evil\u{1B}[2J\n   2. Forged (1999)  9.9\u{7} (2001)"# + "\n   2. Fine (2002)\n"
      )
      let json = try await Self.movies(["list", "--all", "--api", url, "--json"])
      #expect(
        try JSONDecoder().decode([Movie].self, from: json.output).map(\.title) == [
          title, "Fine",
        ]
      )
    }
  }

  /// Proves that every numeric option refuses NaN, infinity and values out of range with one
  /// line naming it, and status 64.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: [
      (["list", "--all", "--timeout", "nan"], "--timeout must be between 0.001 and 3600 seconds"),
      (["list", "--all", "--timeout=-1"], "--timeout must be between 0.001 and 3600 seconds"),
      (["list", "--all", "--timeout", "-1"], "--timeout must be between 0.001 and 3600 seconds"),
      (["list", "--all", "--retries", "-1"], "--retries must be between 0 and 10, not -1"),
      (["list", "--all", "--latency", "-1"], "--latency must be between 0 and 600000, not -1"),
      (["list", "--all", "--retries=-1"], "--retries must be between 0 and 10, not -1"),
      (["list", "--all", "--max-retry-after", "inf"], "--max-retry-after must be finite, not inf"),
      (
        ["list", "--all", "--max-retry-after", "nan"], "--max-retry-after must be a number, not NaN"
      ),
      (
        ["list", "--all", "--max-retry-after", "1e9"],
        "--max-retry-after must be between 0.0 and 86400.0, not 1000000000.0"
      ),
      (["list", "--all", "--max-body-bytes", "0"], "--max-body-bytes must be between 1 and "),
      (["list", "--all", "--fail-rate", "inf"], "--fail-rate must be finite, not inf"),
      (["list", "--all", "--fail-rate", "nan"], "--fail-rate must be a number, not NaN"),
      (["list", "--all", "--latency", "600001"], "--latency must be between 0 and 600000"),
      (["list", "--pages", "501"], "--pages must be between 1 and 500, not 501"),
      (["browse", "--retries", "99"], "--retries must be between 0 and 10, not 99"),
      (["serve", "--malformed-page", "0"], "--malformed-page must be between 1 and 500, not 0"),
      (["serve", "--rate-limited-page=-3"], "--rate-limited-page must be between 1 and 500"),
      (["bench", "--rounds", "0"], "--rounds must be between 1 and 1000, not 0"),
    ]
  )
  func everyNumericOptionIsChecked(_ arguments: [String], _ message: String) async throws {
    let run = try await Self.movies(arguments)
    #expect(run.status == 64, "movies \(arguments): \(run.summary)")
    let first = run.errorText.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("Error: " + message), "movies \(arguments): \(first)")
    #expect(run.output.isEmpty)
  }

  /// Proves that output to a pipe nobody reads (`movies list | head -0`) ends the program with
  /// status 74 and nothing on standard error, as `cat` does — for a short and a long output.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: [["list", "--pages", "1"], ["list", "--all"], ["list", "--all", "--json"]]
  )
  func aClosedOutputEndsQuietlyWith74(_ arguments: [String]) async throws {
    let executable = try #require(Self.executable)
    let run = try await runChild(executable, arguments, output: .closedPipe)
    #expect(!run.signalled && !run.timedOut, "\(run.summary)")
    #expect(run.status == 74, "\(run.summary)")
    #expect(run.errors.isEmpty, "\(run.errorText)")
  }

  /// Proves that `--version` prints the package's version, and that every `--help` lists the
  /// exit codes.
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func versionAndExitCodesInHelp() async throws {
    let version = try await Self.movies(["--version"])
    #expect(version.succeeded)
    #expect(version.outputText == CascadeVersion.current + "\n")
    for command in [[], ["list"], ["browse"], ["serve"], ["bench"]] {
      let help = try await Self.movies(command + ["--help"])
      #expect(help.succeeded, "\(command): \(help.summary)")
      for status in ExitStatus.allCases {
        #expect(help.outputText.contains("  \(status)"), "movies \(command) --help lacks \(status)")
      }
    }
  }

  /// Proves that `movies bench` measures every HTTP client, through the app and alone, and
  /// prints its table (the figures themselves are not checked: timing belongs to the benchmark).
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func benchPrintsATableForEveryClient() async throws {
    // The bench's own embedded server (its bundled catalog, 17 pages), in the child: a server in
    // this process answers late when the suite keeps this process's threads busy, which the
    // CI's flake check makes it do. Every client through every page: minutes on a machine that
    // is also compiling, so the safety net is wide.
    let run = try await Self.movies(["bench", "--rounds", "1"], timeout: .seconds(600))
    #expect(run.succeeded, "\(run.summary)")
    for transport in MoviesClient.Transport.allCases {
      #expect(run.outputText.contains("| \(transport) | app (store) | 17 | "))
      #expect(run.outputText.contains("| \(transport) | client alone | 17 | "))
    }
  }
}

extension String {
  /// The string right-aligned in `width` characters.
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
