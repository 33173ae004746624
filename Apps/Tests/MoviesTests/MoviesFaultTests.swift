import AppSupport
import AppTestSupport
import CascadeStreams
import CascadeTesting
import Foundation
import MoviesServer
import Testing

@testable import MoviesCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Server faults over real HTTP on loopback, on every architecture: each reaches the state as
/// its own typed error, and once the server is healthy again a retry recovers the page.
@Suite(.checksResources) struct MoviesFaultTests {
  /// A fault of the server, what the state must show for it, and whether page 2 runs out of
  /// time.
  struct Fault: Sendable, CustomTestStringConvertible {
    var name: String
    var faults: ServerFaults
    var error: MoviesError
    /// Whether the test runs the client's clock past its timeout once the server has the request
    /// for page 2 (which never answers).
    var runsOutOfTime = false

    var testDescription: String { name }

    static let all = [
      Fault(
        name: "HTTP 500",
        faults: ServerFaults(failingPages: [2: 100]),
        error: .httpStatus(500)
      ),
      Fault(
        name: "malformed JSON",
        faults: ServerFaults(malformedPages: [2]),
        error: .malformedBody("not JSON")
      ),
      Fault(
        name: "timeout",
        faults: ServerFaults(hangingPages: [2]),
        error: .timeout,
        runsOutOfTime: true
      ),
      Fault(
        name: "connection closed mid-body",
        faults: ServerFaults(disconnectingPages: [2: 100]),
        error: .truncatedBody(received: 0, expected: nil)
      ),
      Fault(
        name: "HTML",
        faults: ServerFaults(htmlPages: [2]),
        error: .notJSON(contentType: "text/html; charset=utf-8")
      ),
      Fault(
        name: "HTTP 429",
        faults: ServerFaults(rateLimitedPages: [2: 100]),
        error: .tooManyRequests(retryAfter: nil)
      ),
    ]
  }

  @Test(arguments: Fault.all, Architecture.allCases)
  func aFaultReachesTheStateAndRetryRecovers(
    _ fault: Fault,
    _ architecture: Architecture
  ) async throws {
    try await withServer(faults: fault.faults) { server, url in
      // The client's timeouts run on a virtual clock: a page runs out of time only when the test
      // advances it, however slow the machine is.
      let clock = TestScheduler()
      let timeout = Duration.seconds(30)
      let client = try MoviesClient(baseURL: url, timeout: timeout, timers: clock)
      let pages = Recorder<Int>()
      let watching = server.requests.subscribe(onNext: { pages.append($0) })
      defer { watching.dispose() }
      let movies = makeMovies(architecture, client: client)
      movies.send(.loadNextPage)
      _ = try await movies.waitForState(timeout: .seconds(300)) { $0.phase == .loadedPage }
      movies.send(.loadNextPage)
      if fault.runsOutOfTime {
        #expect(await pages.wait { $0 == [1, 2] }, "the server was not asked for page 2")
        await clock.advance(by: timeout)
      }
      let failed = try await movies.waitForState(timeout: .seconds(300)) { $0.phase == .error }
      if case .truncatedBody = fault.error {
        // Half of the page's bytes came, of all those announced.
        guard case .truncatedBody(let received, let expected?)? = failed.failure?.error else {
          Issue.record("expected a truncated body, got \(String(describing: failed.failure))")
          return
        }
        #expect(received == expected / 2)
      } else {
        #expect(failed.failure?.error == fault.error)
      }
      #expect(failed.failure?.request.page == 2)
      #expect(failed.movies.count == 20, "page 1 is kept")

      server.faults = ServerFaults()
      movies.send(.retry)
      let recovered = try await movies.waitForState(timeout: .seconds(300)) {
        $0.phase == .loadedPage
      }
      #expect(recovered.batch.page == 2)
      #expect(recovered.movies.map(\.id) == Array(1...40))
      #expect(recovered.failure == nil)
    }
  }

  /// The client alone, through each HTTP client: each bad reply has its own typed error, and a
  /// body cut off halfway is not a malformed page.
  @Test(arguments: MoviesClient.Transport.allCases)
  func eachBadReplyHasItsOwnError(_ transport: MoviesClient.Transport) async throws {
    let faults = ServerFaults(
      malformedPages: [1],
      disconnectingPages: [2: 1],
      htmlPages: [3],
      oversizedPages: [4: .init(bytes: 100_000), 5: .init(bytes: 100_000, announced: false)],
      rateLimitedPages: [6: 1],
      retryAfter: "7"
    )
    let catalog = MovieCatalog(movies: MovieCatalog.small.movies, pageSize: 5)
    try await withServer(catalog: catalog, faults: faults) { _, url in
      let client = try MoviesClient(
        baseURL: url,
        timeout: .seconds(120),
        maxBodyBytes: 50_000,
        transport: transport
      )
      #expect(await load(1, from: client) == .failure(.malformedBody("not JSON")))
      guard case .failure(.truncatedBody(let received, let expected?)) = await load(2, from: client)
      else {
        Issue.record("page 2 was not cut short")
        return
      }
      #expect(received == expected / 2)
      #expect(try await load(2, from: client).get().page == 2)  // once only
      #expect(
        await load(3, from: client) == .failure(.notJSON(contentType: "text/html; charset=utf-8"))
      )
      #expect(await load(4, from: client) == .failure(.bodyTooLarge(limit: 50_000)))
      #expect(await load(5, from: client) == .failure(.bodyTooLarge(limit: 50_000)))
      #expect(await load(6, from: client) == .failure(.tooManyRequests(retryAfter: .seconds(7))))
      #expect(try await load(6, from: client).get().page == 6)
      // A padded page under the limit is still a page: only its size was wrong.
      let roomy = try MoviesClient(
        baseURL: url,
        timeout: .seconds(120),
        maxBodyBytes: 200_000,
        transport: transport
      )
      #expect(try await load(4, from: roomy).get().page == 4)
      #expect(try await load(5, from: roomy).get().page == 5)
    }
  }

  /// With retries, transient faults (5xx, a dropped connection) recover without the user; a
  /// malformed body is not asked again.
  @Test func theResilientSourceRecoversFromTransientFaults() async throws {
    let faults = ServerFaults(
      failingPages: [1: 2],
      malformedPages: [3],
      disconnectingPages: [2: 2]
    )
    // The timeouts are safety nets, generous for a machine that is also compiling: no fault
    // here waits for one.
    try await withServer(faults: faults) { server, url in
      let source = try MoviesClient(baseURL: url, timeout: .seconds(120)).resilient(
        timeout: .seconds(120),
        attempts: 3,
        backoff: .exponential(initial: .milliseconds(10)),
        scheduler: ConcurrentDispatchQueueScheduler()
      )
      let movies = makeMovies(.store, client: source)
      for page in 1...2 {
        movies.send(.loadNextPage)
        let state = try await movies.waitForState(timeout: .seconds(300)) {
          !$0.isLoading && $0.batch.page == page
        }
        #expect(state.phase == .loadedPage)
      }
      movies.send(.loadNextPage)
      let failed = try await movies.waitForState(timeout: .seconds(300)) { $0.phase == .error }
      #expect(failed.failure?.error == .malformedBody("not JSON"))
      #expect(server.requestedPages == [1, 1, 1, 2, 2, 2, 3])
    }
  }

  /// An answer's head, mapped to the failure it already shows, before any body is read.
  @Test(arguments: [
    (ReplyHead(status: 200, contentType: "application/json"), nil),
    (ReplyHead(status: 200, contentType: "application/json; charset=utf-8"), nil),
    (ReplyHead(status: 200, contentType: "application/problem+json"), nil),
    (ReplyHead(status: 200, contentType: nil), nil),
    (
      ReplyHead(status: 200, contentType: "text/html"),
      MoviesError.notJSON(contentType: "text/html")
    ),
    (ReplyHead(status: 200, contentType: ""), .notJSON(contentType: "")),
    (ReplyHead(status: 503, contentType: "text/html"), .httpStatus(503)),
    (ReplyHead(status: 301), .httpStatus(301)),
    (ReplyHead(status: 429), .tooManyRequests(retryAfter: nil)),
    (ReplyHead(status: 429, retryAfter: "120"), .tooManyRequests(retryAfter: .seconds(120))),
    (ReplyHead(status: 429, retryAfter: "soon"), .tooManyRequests(retryAfter: nil)),
    (
      ReplyHead(status: 429, retryAfter: "Thu, 01 Jan 1970 00:01:30 GMT"),
      .tooManyRequests(retryAfter: .seconds(30))
    ),
  ])
  func headsMapToTypedErrors(_ head: ReplyHead, _ expected: MoviesError?) {
    #expect(MoviesClient.check(head, now: Date(timeIntervalSince1970: 60)) == expected)
    #expect(!(expected?.description.isEmpty ?? false))
  }

  /// A body, mapped to its page or to why it is not one.
  @Test(arguments: [
    (Data(#"{"status": "ok"}"#.utf8), MoviesError.malformedBody("missing 'page'")),
    (Data(), .malformedBody("not JSON")),
    (Data("null".utf8), .malformedBody("wrong type at the top level")),
    (Data([0xFF, 0xFE, 0x00]), .malformedBody("not JSON")),
    (
      Data(#"{"page": 2, "total_pages": 3, "total_results": 45, "results": []}"#.utf8),
      .malformedBody("asked for page 1, got page 2")
    ),
    (
      Data(#"{"page": "one", "total_pages": 3, "total_results": 45, "results": []}"#.utf8),
      .malformedBody("wrong type at 'page'")
    ),
  ])
  func bodiesMapToTypedErrors(_ body: Data, _ expected: MoviesError) {
    #expect(MoviesClient.decode(page: 1, body: body) == .failure(expected))
  }

  /// Every failure reads as one line of its own.
  @Test func everyFailureHasItsOwnLine() {
    let failures: [MoviesError] = [
      .transport("connection refused"), .httpStatus(500), .malformedBody("not JSON"), .timeout,
      .truncatedBody(received: 10, expected: 20), .truncatedBody(received: 10, expected: nil),
      .bodyTooLarge(limit: 100), .notJSON(contentType: "text/html"),
      .tooManyRequests(retryAfter: nil), .tooManyRequests(retryAfter: .milliseconds(1500)),
    ]
    let lines = failures.map(\.description)
    #expect(Set(lines).count == failures.count)
    #expect(lines.allSatisfy { !$0.isEmpty && !$0.contains("\n") })
    #expect(!lines.contains { $0.contains("URL error") })
    #expect(lines.last == "the server answered HTTP 429 (too many requests), asking to wait 1.5 s")
  }
}
