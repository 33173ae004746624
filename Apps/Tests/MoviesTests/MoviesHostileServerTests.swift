import AppTestSupport
import Foundation
import MoviesCore
import Testing

/// Issue 34, end to end: the built `movies list` against a server that sends what it likes (a
/// raw socket in this process): every loop the server controls ends, every reply that is not
/// HTTP or not a page is named and not retried, and the films of the pages before are kept.
@Suite struct MoviesHostileServerTests {
  static let executable = builtProduct(named: "movies")

  /// Runs `movies list --all --api <server>` with `options`.
  ///
  /// It is killed after 5 minutes, a safety net only: 500 pages take 1.5 s on an idle machine,
  /// and over a minute on two cores that also run the rest of the suite, two CPU hogs and a
  /// compiler (`Tooling/flake-check.sh`).
  static func list(
    _ server: HostileServer,
    _ options: [String] = [],
    transport: MoviesClient.Transport = .platformDefault
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the movies product first")
    let arguments =
      ["list", "--all", "--api", server.url, "--transport", transport.rawValue] + options
    let run = try await runChild(executable, arguments, input: .text(""), timeout: .seconds(300))
    #expect(!run.timedOut && !run.signalled, "movies \(arguments): \(run.summary)")
    return run
  }

  /// The lines `list` prints for films `ids` (``HostileServer/page(_:of:ids:)``'s films).
  static func lines(_ ids: [Int]) -> String {
    ids.enumerated().map { index, id in
      let number = String(index + 1)
      return String(repeating: " ", count: max(0, 4 - number.count)) + number
        + ". Film \(id) (2001)  7.0\n"
    }.joined()
  }

  /// Proves that `--all` stops after 500 pages when `total_pages` keeps growing (page N says
  /// there are N + 1), with the 500 pages' films printed, one line on stderr and status 1.
  /// (Before: it asked for pages until killed, printing nothing.)
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func aGrowingListingStopsAt500Pages() async throws {
    let server = try HostileServer { page in
      .bytes(HostileServer.pageReply(page, of: page + 1, ids: [page]))
    }
    defer { server.stop() }
    let run = try await Self.list(server)
    #expect(run.status == 1, "\(run.summary)")
    #expect(
      run.errorText
        == "movies: stopped after 500 pages, the most --all loads: \(server.url) has 501\n"
    )
    #expect(run.outputText == Self.lines(Array(1...500)))
    #expect(server.pagesAsked == Array(1...500))
  }

  /// A page a server sends, and what `list` says about it.
  struct BadPage: Sendable, CustomTestStringConvertible {
    var name: String
    /// Page 2's JSON (page 1 has film 1, of `total_pages` 3).
    var body: String
    /// What follows `movies: page 2 from URL: the server sent a malformed page: `.
    var message: String

    var testDescription: String { name }

    static let film = #"{"id": 2, "title": "Film 2"}"#

    static let all = [
      BadPage(
        name: "total_pages of 2^62",
        body:
          #"{"page": 2, "total_pages": 4611686018427387904, "total_results": 1, "results": [\#(film)]}"#,
        message: "'total_pages' is 4611686018427387904, not between 0 and 2147483647"
      ),
      BadPage(
        name: "negative total_pages",
        body: #"{"page": 2, "total_pages": -1, "total_results": 1, "results": [\#(film)]}"#,
        message: "'total_pages' is -1, not between 0 and 2147483647"
      ),
      BadPage(
        name: "negative total_results",
        body: #"{"page": 2, "total_pages": 3, "total_results": -5, "results": [\#(film)]}"#,
        message: "'total_results' is -5, not between 0 and 2147483647"
      ),
      BadPage(
        name: "total_pages shrinking below the page",
        body: #"{"page": 2, "total_pages": 1, "total_results": 1, "results": [\#(film)]}"#,
        message: "page 2 is past 'total_pages' (1)"
      ),
      BadPage(
        name: "an empty page before the last",
        body: #"{"page": 2, "total_pages": 3, "total_results": 60, "results": []}"#,
        message: "page 2 of 3 has no films (only the last page may be empty)"
      ),
      BadPage(
        name: "a negative id",
        body:
          #"{"page": 2, "total_pages": 3, "total_results": 1, "results": [{"id": -7, "title": "A"}]}"#,
        message: "'results[0].id' is -7, not between 0 and 2147483647"
      ),
      BadPage(
        name: "an id that is not an integer",
        body:
          #"{"page": 2, "total_pages": 3, "total_results": 1, "results": [{"id": 1.5, "title": "A"}]}"#,
        message: "wrong type at 'results[0].id'"
      ),
      BadPage(
        name: "an id that is a string",
        body:
          #"{"page": 2, "total_pages": 3, "total_results": 1, "results": [{"id": "7", "title": "A"}]}"#,
        message: "wrong type at 'results[0].id'"
      ),
      BadPage(
        name: "a vote over 10",
        body:
          #"{"page": 2, "total_pages": 3, "total_results": 1, "results": [{"id": 2, "title": "A", "vote_average": 1e300}]}"#,
        message: "'results[0].vote_average' is 1e+300, not between 0 and 10"
      ),
    ]
  }

  /// Proves that a page with a number out of range, or a value of the wrong type, ends `list`
  /// with 65 and one line naming the field, after the films of page 1, without a retry.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: BadPage.all
  )
  func aPageWithANumberOutOfRangeIsMalformed(_ bad: BadPage) async throws {
    let server = try HostileServer { page in
      page == 1
        ? .bytes(HostileServer.pageReply(1, of: 3, ids: [1]))
        : .bytes(HostileServer.reply(body: Data(bad.body.utf8)))
    }
    defer { server.stop() }
    let run = try await Self.list(server, ["--retries", "2"])
    #expect(run.status == 65, "\(run.summary)")
    #expect(run.outputText == Self.lines([1]))
    #expect(
      run.errorText
        == "movies: page 2 from \(server.url): the server sent a malformed page: \(bad.message)\n"
    )
    #expect(server.pagesAsked == [1, 2])
  }

  /// A reply that is not valid HTTP, and what `list` says about it.
  struct BadReply: Sendable, CustomTestStringConvertible {
    var name: String
    var reply: @Sendable (String) -> Data
    var message: String
    /// The message through `URLSession` (libcurl on Linux, which says less).
    var urlSessionMessage = "not valid HTTP"

    var testDescription: String { name }

    static let all = [
      BadReply(
        name: "a garbage status line",
        reply: { _ in Data("HELLO THERE\r\n\r\n".utf8) },
        message: "the status line is not HTTP"
      ),
      BadReply(
        name: "header bytes that are not allowed",
        reply: { _ in
          HostileServer.reply(
            headers: ["Content-Type: application/json", "X-B\u{1}d: 1"],
            body: HostileServer.page(1, of: 1, ids: [1])
          )
        },
        message: "a header has bytes that are not allowed"
      ),
      BadReply(
        name: "a negative Content-Length",
        reply: { _ in
          HostileServer.reply(
            headers: ["Content-Type: application/json", "Content-Length: -5"],
            body: HostileServer.page(1, of: 1, ids: [1])
          )
        },
        message: "its Content-Length is not valid"
      ),
      BadReply(
        name: "a redirect loop",
        reply: { url in
          HostileServer.reply(
            status: "HTTP/1.1 302 Found",
            headers: ["Location: \(url)/discover/movie?page=1"]
          )
        },
        message: "its redirects go round in a loop",
        urlSessionMessage: "its redirects go round in a loop, or are too many"
      ),
    ]
  }

  /// Proves that a reply that is not valid HTTP is a malformed reply: 65 and one line saying
  /// what was wrong, not retried (no retry notice on stderr), through each HTTP client.
  /// (Before: "cannot reach the server", retried, 75.)
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: BadReply.all,
    MoviesClient.Transport.allCases
  )
  func aReplyThatIsNotHTTPIsMalformed(
    _ bad: BadReply,
    _ transport: MoviesClient.Transport
  ) async throws {
    let address = LockedBox("")
    let server = try HostileServer { _ in .bytes(bad.reply(address.value)) }
    defer { server.stop() }
    address.value = server.url
    let run = try await Self.list(server, ["--retries", "2"], transport: transport)
    let message = transport == .urlSession ? bad.urlSessionMessage : bad.message
    #expect(run.status == 65, "\(run.summary)")
    #expect(run.output.isEmpty)
    #expect(
      run.errorText
        == "movies: page 1 from \(server.url): the server sent a malformed reply: \(message)\n"
    )
    if transport != .urlSession {
      // Asked once (a redirect loop asks the same page twice before it sees the loop).
      #expect(server.pagesAsked.count <= 2, "\(server.pagesAsked)")
    }
  }

  /// Proves that a server that stops sending mid-body is reported as a timeout (75).
  ///
  /// Before, it was a connection the server closed: "the reply was cut short: the connection
  /// closed after 10 of the 1000 bytes announced". Page 1 itself stops: a page before it could
  /// run out of time on a busy machine, and make the test depend on the clock.
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func aTimeoutMidBodyIsATimeout() async throws {
    let server = try HostileServer { _ in
      .hold(
        HostileServer.reply(
          headers: ["Content-Type: application/json", "Content-Length: 1000"],
          body: Data(#"{"page": 1"#.utf8)
        )
      )
    }
    defer { server.stop() }
    let run = try await Self.list(server, ["--timeout", "0.5"])
    #expect(run.status == 75, "\(run.summary)")
    #expect(run.output.isEmpty)
    #expect(
      run.errorText == "movies: page 1 from \(server.url): the server did not answer in time\n"
    )
  }

  /// Proves that a film listed on an earlier page (or earlier on its page) is listed once, the
  /// first one kept, in text and JSON.
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func aFilmIsListedOnce() async throws {
    let server = try HostileServer { page in
      .bytes(HostileServer.pageReply(page, of: 2, ids: page == 1 ? [1, 2, 1] : [2, 3]))
    }
    defer { server.stop() }
    let text = try await Self.list(server)
    #expect(text.succeeded, "\(text.summary)")
    #expect(text.outputText == Self.lines([1, 2, 3]))
    let json = try await Self.list(server, ["--json"])
    #expect(json.succeeded, "\(json.summary)")
    #expect(try JSONDecoder().decode([Movie].self, from: json.output).map(\.id) == [1, 2, 3])
  }

  /// Proves that an empty catalog prints `[]` with `--json`. (Before: `[`, a blank line, `]`.)
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func anEmptyListingIsAnEmptyArray() async throws {
    let server = try HostileServer { page in .bytes(HostileServer.pageReply(page, of: 0, ids: [])) }
    defer { server.stop() }
    let run = try await Self.list(server, ["--json"])
    #expect(run.succeeded, "\(run.summary)")
    #expect(run.outputText == "[]\n")
    #expect(run.errors.isEmpty)
  }

  /// Proves that `--timeout` takes one range, 0.001 to 3600 seconds (or `inf`), written either
  /// way (`--timeout -1`, `--timeout=-1`), and refuses the rest with 64 and one line. (Before:
  /// `--timeout -1` said "Missing value", `1e-300` was accepted and `0` refused.)
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: [
      (["--timeout", "-1"], "-1"), (["--timeout=-1"], "-1"), (["--timeout", "1e-300"], "1e-300"),
      (["--timeout", "0"], "0"), (["--timeout", "4000"], "4000"), (["--timeout", "nan"], "nan"),
      (["--timeout", "-inf"], "-inf"), (["--timeout", "1e10"], "10000000000"),
    ]
  )
  func aTimeoutOutOfRangeIsRefused(_ options: [String], _ value: String) async throws {
    let executable = try #require(Self.executable, "build the movies product first")
    let run = try await runChild(executable, ["list", "--all"] + options, input: .text(""))
    #expect(run.status == 64, "\(run.summary)")
    #expect(run.output.isEmpty)
    let first = run.errorText.split(separator: "\n").first.map(String.init) ?? ""
    #expect(
      first
        == "Error: --timeout must be between 0.001 and 3600 seconds (or inf: no limit), not \(value)"
    )
  }
}

extension MoviesHostileServerTests {
  /// Proves that `bench` pages through at most 500 pages when `total_pages` keeps growing, in
  /// the app and through the client alone, and prints its table. (Before: it paged until
  /// killed.)
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func benchStopsAt500Pages() async throws {
    let executable = try #require(Self.executable, "build the movies product first")
    let transport = MoviesClient.Transport.platformDefault
    let server = try HostileServer { page in
      .bytes(HostileServer.pageReply(page, of: page + 1, ids: [page]))
    }
    defer { server.stop() }
    let run = try await runChild(
      executable,
      ["bench", "--api", server.url, "--rounds", "1", "--transport", transport.rawValue],
      input: .text(""),
      timeout: .seconds(300)  // a safety net (see `list`): 1,000 pages
    )
    #expect(run.succeeded, "\(run.summary)")
    #expect(run.outputText.contains("| \(transport) | client alone | 500 |"), "\(run.outputText)")
    #expect(server.pagesAsked == Array(1...500) + Array(1...500))
  }
}
