import AppSupport
import CascadeStreams
import CascadeTestSupport
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
        error: .transport("")
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
      _ = try await movies.waitForState(timeout: .seconds(30)) { $0.phase == .loadedPage }
      movies.send(.loadNextPage)
      if fault.runsOutOfTime {
        #expect(await pages.wait { $0 == [1, 2] }, "the server was not asked for page 2")
        await clock.advance(by: timeout)
      }
      let failed = try await movies.waitForState(timeout: .seconds(30)) { $0.phase == .error }
      if case .transport = fault.error {
        // The message is the platform's (FoundationNetworking says "URL error -1"); the type is
        // what the state shows.
        guard case .transport(let message)? = failed.failure?.error else {
          Issue.record("expected a transport error, got \(String(describing: failed.failure))")
          return
        }
        #expect(!message.isEmpty)
      } else {
        #expect(failed.failure?.error == fault.error)
      }
      #expect(failed.failure?.request.page == 2)
      #expect(failed.movies.count == 20, "page 1 is kept")

      server.faults = ServerFaults()
      movies.send(.retry)
      let recovered = try await movies.waitForState(timeout: .seconds(30)) {
        $0.phase == .loadedPage
      }
      #expect(recovered.batch.page == 2)
      #expect(recovered.movies.map(\.id) == Array(1...40))
      #expect(recovered.failure == nil)
    }
  }

  /// The client alone: a body cut off halfway is a transport error, not a malformed page.
  @Test func aConnectionClosedMidBodyIsATransportError() async throws {
    try await withServer(faults: ServerFaults(disconnectingPages: [1: 1])) { _, url in
      let client = try MoviesClient(baseURL: url)
      let cut = await load(1, from: client)
      guard case .failure(.transport) = cut else {
        Issue.record("expected a transport error, got \(cut)")
        return
      }
      #expect(try await load(1, from: client).get().page == 1)  // once only
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
    try await withServer(faults: faults) { server, url in
      let source = try MoviesClient(baseURL: url, timeout: .seconds(30)).resilient(
        timeout: .seconds(30),
        attempts: 3,
        backoff: .exponential(initial: .milliseconds(10)),
        scheduler: ConcurrentDispatchQueueScheduler()
      )
      let movies = makeMovies(.store, client: source)
      for page in 1...2 {
        movies.send(.loadNextPage)
        let state = try await movies.waitForState(timeout: .seconds(30)) {
          !$0.isLoading && $0.batch.page == page
        }
        #expect(state.phase == .loadedPage)
      }
      movies.send(.loadNextPage)
      let failed = try await movies.waitForState(timeout: .seconds(30)) { $0.phase == .error }
      #expect(failed.failure?.error == .malformedBody("not JSON"))
      #expect(server.requestedPages == [1, 1, 1, 2, 2, 2, 3])
    }
  }

  /// What the session hands the client, each mapped to its typed error.
  @Test(arguments: [
    (200, Data(#"{"status": "ok"}"#.utf8), MoviesError.malformedBody("missing 'page'")),
    (200, Data(), .malformedBody("not JSON")),
    (200, Data("null".utf8), .malformedBody("wrong type at the top level")),
    (200, Data([0xFF, 0xFE, 0x00]), .malformedBody("not JSON")),
    (
      200, Data(#"{"page": 2, "total_pages": 3, "total_results": 45, "results": []}"#.utf8),
      .malformedBody("asked for page 1, got page 2")
    ),
    (
      200, Data(#"{"page": "one", "total_pages": 3, "total_results": 45, "results": []}"#.utf8),
      .malformedBody("wrong type at 'page'")
    ),
    (503, Data(), .httpStatus(503)),
    (429, Data("slow down".utf8), .httpStatus(429)),
    (301, Data(), .httpStatus(301)),
  ])
  func answersMapToTypedErrors(_ status: Int, _ body: Data, _ expected: MoviesError) throws {
    let url = try #require(URL(string: "http://127.0.0.1/discover/movie?page=1"))
    let response = HTTPURLResponse(
      url: url,
      statusCode: status,
      httpVersion: nil,
      headerFields: nil
    )
    let result = MoviesClient.decode(page: 1, data: body, response: response, error: nil)
    #expect(result == .failure(expected))
    #expect(!expected.description.isEmpty)
  }

  @Test func noAnswerIsATransportError() {
    #expect(
      MoviesClient.decode(page: 1, data: nil, response: nil, error: nil)
        == .failure(.transport("no HTTP response"))
    )
    #expect(
      MoviesClient.decode(page: 1, data: nil, response: nil, error: URLError(.timedOut))
        == .failure(.timeout)
    )
    #expect(
      MoviesClient.decode(
        page: 1,
        data: nil,
        response: nil,
        error: URLError(.networkConnectionLost)
      )
        == .failure(.transport("connection lost"))
    )
  }
}
