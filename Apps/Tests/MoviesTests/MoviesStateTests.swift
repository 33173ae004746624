import MoviesCore
import Testing

/// The paging transitions the three services share, as pure functions.
@Suite struct MoviesStateTests {
  static func page(_ number: Int, of total: Int = 3) -> MoviePage {
    MoviePage(
      page: number,
      totalResults: total * 2,
      totalPages: total,
      results: [
        Movie(id: number * 10 + 1, title: "Film \(number)a"),
        Movie(id: number * 10 + 2, title: "Film \(number)b"),
      ]
    )
  }

  @Test func theFirstIntentLoadsPageOne() throws {
    var state = MoviesState()
    let request = try #require(state.request(for: .loadNextPage))
    #expect(request == PageRequest(id: 1, page: 1, kind: .next))
    state.begin(request)
    #expect(state.phase == .paging)
    #expect(state.isLoading)
    state.receive(Self.page(1), for: request)
    #expect(state.phase == .loadedPage)
    #expect(state.movies.map(\.id) == [11, 12])
    #expect(state.batch.page == 1)
    #expect(!state.isLoading)
  }

  // No duplicate request: while a page loads, "next page" asks for nothing.
  @Test func nextPageWhileLoadingIsIgnored() {
    var state = MoviesState()
    state.apply(.loadNextPage)
    let before = state
    #expect(state.request(for: .loadNextPage) == nil)
    state.apply(.loadNextPage)
    #expect(state == before)
  }

  @Test func stopsAtTheLastPage() {
    var state = MoviesState()
    for number in 1...3 {
      state.apply(.loadNextPage)
      state.receive(Self.page(number), for: state.request!)
    }
    #expect(state.isAtEnd)
    #expect(state.movies.count == 6)
    #expect(state.request(for: .loadNextPage) == nil)
  }

  @Test func retryLoadsTheFailedPageAgain() throws {
    var state = MoviesState()
    state.apply(.loadNextPage)
    state.receive(Self.page(1), for: state.request!)
    #expect(state.request(for: .retry) == nil)  // nothing failed yet
    state.apply(.loadNextPage)
    let failed = try #require(state.request)
    state.fail(.httpStatus(500), for: failed)
    #expect(state.phase == .error)
    #expect(state.failure == PageFailure(request: failed, error: .httpStatus(500)))
    state.apply(.retry)
    #expect(state.phase == .retry)
    #expect(state.request == PageRequest(id: 3, page: 2, kind: .retry))
    #expect(state.failure == nil)
    state.receive(Self.page(2), for: state.request!)
    #expect(state.phase == .loadedPage)
    #expect(state.movies.count == 4)
  }

  @Test func refreshReplacesTheFilmsAndIgnoresTheCancelledPage() throws {
    var state = MoviesState()
    state.apply(.loadNextPage)
    state.receive(Self.page(1), for: state.request!)
    state.apply(.loadNextPage)
    let inFlight = try #require(state.request)
    state.apply(.refresh)
    #expect(state.phase == .refreshing)
    #expect(state.request == PageRequest(id: 3, page: 1, kind: .refresh))
    #expect(state.movies.count == 2)  // the old films stay until page 1 arrives
    // A refresh while refreshing asks for nothing.
    #expect(state.request(for: .refresh) == nil)
    // The page of the cancelled request changes nothing.
    let refreshing = state
    state.receive(Self.page(2), for: inFlight)
    state.fail(.timeout, for: inFlight)
    #expect(state == refreshing)
    state.receive(Self.page(1), for: state.request!)
    #expect(state.phase == .refreshed)
    #expect(state.movies.map(\.id) == [11, 12])
  }

  @Test func describesItself() {
    var state = MoviesState()
    state.apply(.loadNextPage)
    #expect(
      state.description == "paging: page 0 of 0, 0 films, loading page 1 (#1, next)"
    )
  }
}
