import AppHarness
import AppSupport
import AppTestSupport
import CascadeStreams
import CascadeTesting
import Foundation
import MoviesCore
import MoviesServer
import Testing

/// The movie list over real HTTP: every scenario runs on every architecture, each against its
/// own catalog server on loopback with the real client, and must go through identical states.
@Suite(.checksResources) struct MoviesScenarioTests {
  typealias MoviesScenario = Scenario<MoviesIntent, MoviesState>
  typealias Step = MoviesScenario.Step

  /// The server of the architecture running now (architectures run one after the other).
  let server = LockedBox<MovieCatalogServer?>(nil)
  /// The pages the current server was asked for, recorded as the requests arrive.
  let requests = LockedBox<Recorder<Int>?>(nil)

  /// Runs `scenario` on every architecture, each with a fresh server with `faults`.
  ///
  /// The timeouts are safety nets: a client's fires only if a page takes 120 s on `clientClock`,
  /// which a scenario about timeouts makes a virtual clock it advances. Wide, because the CI's
  /// flake check runs the suite on a machine kept busy (a hog on every core and a build), where
  /// the in-process server once took over 30 s to answer.
  @discardableResult
  func runEverywhere(
    _ name: String,
    faults: ServerFaults = ServerFaults(),
    clientClock: any CascadeStreams.Scheduler = ConcurrentDispatchQueueScheduler(),
    steps: [Step]
  ) async throws -> [MoviesState] {
    let servers = Recorder<MovieCatalogServer>()
    let watching = CompositeDisposable()
    let current = server
    let currentRequests = requests
    let scenario = MoviesScenario(name, timeout: .seconds(300), steps: steps)
    defer { watching.dispose() }
    do {
      let states = try await assertIdenticalAcrossArchitectures(scenario) { architecture in
        let server = MovieCatalogServer(catalog: .small, faults: faults)
        let pages = Recorder<Int>()
        _ = watching.insert(server.requests.subscribe(onNext: { pages.append($0) }))
        servers.append(server)
        current.value = server
        currentRequests.value = pages
        let url = try await server.start()
        let client = try MoviesClient(
          baseURL: url.absoluteString,
          timeout: Self.clientTimeout,
          timers: clientClock
        )
        return AnyMovies(makeMovies(architecture, client: client))
      }
      for server in servers.values { await server.stop() }
      return states
    } catch {
      for server in servers.values { await server.stop() }
      throw error
    }
  }

  /// Checks the pages the current server was asked for.
  func requestedPages(_ expected: [Int]) -> Step {
    let server = server
    return .perform("the server was asked for pages \(expected)") {
      #expect(server.value?.requestedPages == expected)
    }
  }

  /// How long a page may take (a safety net: see `runEverywhere`).
  static let clientTimeout: Duration = .seconds(120)

  static func loaded(page: Int) -> Step {
    .await("page \(page)") { $0.phase == .loadedPage && $0.batch.page == page }
  }

  @Test func firstPage() async throws {
    let states = try await runEverywhere(
      "first page",
      steps: [
        .send(.loadNextPage),
        Self.loaded(page: 1),
        .expect("20 films of 45, in 3 pages") {
          $0.movies.count == 20 && $0.batch.totalResults == 45 && $0.batch.totalPages == 3
        },
        .expect("the catalog's first film first") { $0.movies.first?.title == "Film 1" },
      ]
    )
    #expect(states.map(\.phase) == [.initial, .paging, .loadedPage])
  }

  // No duplicate request for a page in flight; nothing asked after the last page. The server
  // holds its answer until both requests were sent: the second is sent while the page loads,
  // however fast the answer would come.
  @Test func pagingToTheEnd() async throws {
    let server = server
    let pages: [Step] = (1...3).flatMap { page -> [Step] in
      [
        .perform("the server holds its answers") { server.value?.holdAnswers() },
        .send(.loadNextPage),
        .send(.loadNextPage),  // while the page loads: ignored
        .perform("the server answers") { server.value?.releaseAnswers() },
        Self.loaded(page: page),
      ]
    }
    let states = try await runEverywhere(
      "paging to the end",
      steps: pages + [
        .send(.loadNextPage),  // after the last page: ignored
        .expect("all 45 films, at the end") {
          $0.isAtEnd && $0.movies.map(\.id) == Array(1...45) && !$0.isLoading
        },
        requestedPages([1, 2, 3]),
      ]
    )
    #expect(states.count == 7)
  }

  @Test func errorThenRetry() async throws {
    let states = try await runEverywhere(
      "error then retry",
      faults: ServerFaults(failingPages: [2: 1]),
      steps: [
        .send(.loadNextPage),
        Self.loaded(page: 1),
        .send(.loadNextPage),
        .await("page 2 fails") { $0.phase == .error },
        .expect("HTTP 500 on page 2") {
          $0.failure?.error == .httpStatus(500) && $0.failure?.request.page == 2
        },
        .send(.retry),
        Self.loaded(page: 2),
        .expect("40 films") { $0.movies.count == 40 },
        requestedPages([1, 2, 2]),
      ]
    )
    #expect(
      states.map(\.phase) == [.initial, .paging, .loadedPage, .paging, .error, .retry, .loadedPage]
    )
  }

  // A refresh cancels the page in flight (page 2 never answers here) and starts over.
  @Test func refreshDuringALoad() async throws {
    let requests = requests
    let states = try await runEverywhere(
      "refresh during a load",
      faults: ServerFaults(hangingPages: [2]),
      steps: [
        .send(.loadNextPage),
        Self.loaded(page: 1),
        .send(.loadNextPage),
        .perform("the server got the request for page 2") {
          let pages = try #require(requests.value)
          // Woken by the request's arrival at the server.
          #expect(await pages.wait { $0 == [1, 2] }, "the server was not asked for page 2")
        },
        .expect("paging") { $0.phase == .paging && $0.request?.page == 2 },
        .send(.refresh),
        .await("refreshed") { $0.phase == .refreshed },
        .expect("page 1's films only") { $0.movies.map(\.id) == Array(1...20) },
        requestedPages([1, 2, 1]),
      ]
    )
    #expect(
      states.map(\.phase) == [.initial, .paging, .loadedPage, .paging, .refreshing, .refreshed]
    )
  }

  @Test func malformedPage() async throws {
    let states = try await runEverywhere(
      "malformed page",
      faults: ServerFaults(malformedPages: [2]),
      steps: [
        .send(.loadNextPage),
        Self.loaded(page: 1),
        .send(.loadNextPage),
        .await("page 2 fails") { $0.phase == .error },
        .expect("a malformed body") { $0.failure?.error == .malformedBody("not JSON") },
        .send(.retry),
        .await("page 2 fails again") { $0.phase == .error && $0.failure?.request.kind == .retry },
        .send(.refresh),
        .await("refreshed") { $0.phase == .refreshed },
        .expect("page 1's films, no failure") { $0.movies.count == 20 && $0.failure == nil },
      ]
    )
    #expect(states.last?.phase == .refreshed)
  }

  // Page 2 never answers; once the server has its request, the client's clock runs past the
  // timeout (virtual time: page 1 cannot run out of time however slow the machine is).
  @Test func timeout() async throws {
    let requests = requests
    let clock = TestScheduler()
    let states = try await runEverywhere(
      "timeout",
      faults: ServerFaults(hangingPages: [2]),
      clientClock: clock,
      steps: [
        .send(.loadNextPage),
        Self.loaded(page: 1),
        .send(.loadNextPage),
        .perform("the server got the request for page 2; its time runs out") {
          let pages = try #require(requests.value)
          #expect(await pages.wait { $0 == [1, 2] }, "the server was not asked for page 2")
          await clock.advance(by: Self.clientTimeout)
        },
        .await("page 2 fails") { $0.phase == .error },
        .expect("a timeout on page 2, page 1 kept") {
          $0.failure?.error == .timeout && $0.failure?.request.page == 2 && $0.movies.count == 20
        },
      ]
    )
    #expect(states.map(\.phase) == [.initial, .paging, .loadedPage, .paging, .error])
  }
}
