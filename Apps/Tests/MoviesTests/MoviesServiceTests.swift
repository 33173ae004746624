import AppSupport
import AppTestSupport
import CascadeStreams
import CascadeTesting
import MoviesCore
import Testing

/// The three services on virtual time, against a fake page source: the same intents give the
/// same states, requests and cancellations.
@Suite(.checksResources)
struct MoviesServiceTests {
  static func service(
    _ architecture: Architecture,
    source: FakePageSource
  ) -> any AppService<MoviesIntent, MoviesState> {
    switch architecture {
    case .store: StoreMovies(source: source, scheduler: source.scheduler)
    case .reactor: ReactorMovies(source: source)
    case .feedback: FeedbackMovies(source: source)
    }
  }

  /// Runs `script` on a fresh service and returns the distinct states it went through.
  static func record(
    _ architecture: Architecture,
    source: FakePageSource,
    script: (any AppService<MoviesIntent, MoviesState>) -> Void
  ) -> [MoviesState] {
    let states = Recorder<MoviesState>()
    let service = service(architecture, source: source)
    let subscription = service.states.subscribe(onNext: { states.append($0) })
    script(service)
    subscription.dispose()
    return states.values.reduce(into: []) { distinct, state in
      if distinct.last != state { distinct.append(state) }
    }
  }

  @Test(arguments: Architecture.allCases)
  func pagesToTheEndWithoutDuplicateRequests(_ architecture: Architecture) {
    let scheduler = TestScheduler()
    let source = FakePageSource(scheduler: scheduler, totalPages: 3)
    let states = Self.record(architecture, source: source) { movies in
      for _ in 1...4 {
        movies.send(.loadNextPage)
        movies.send(.loadNextPage)  // while the page loads: no second request
        scheduler.advance(by: .seconds(1))
      }
    }
    #expect(source.requests.values.map(\.value) == [1, 2, 3])
    #expect(source.requests.values.map(\.time) == [.zero, .seconds(1), .seconds(2)])
    #expect(
      states.map(\.phase) == [
        .initial, .paging, .loadedPage, .paging, .loadedPage, .paging, .loadedPage,
      ]
    )
    #expect(states.last?.movies.count == 9)
    #expect(states.last?.isAtEnd == true)
  }

  @Test(arguments: Architecture.allCases)
  func failsThenRetries(_ architecture: Architecture) {
    let scheduler = TestScheduler()
    let source = FakePageSource(scheduler: scheduler, failing: [2: .httpStatus(500)])
    let states = Self.record(architecture, source: source) { movies in
      movies.send(.loadNextPage)
      scheduler.advance(by: .seconds(1))
      movies.send(.retry)  // nothing failed: ignored
      movies.send(.loadNextPage)
      scheduler.advance(by: .seconds(1))
      movies.send(.retry)
      scheduler.advance(by: .seconds(1))
    }
    #expect(source.requests.values.map(\.value) == [1, 2, 2])
    #expect(
      states.map(\.phase) == [.initial, .paging, .loadedPage, .paging, .error, .retry, .loadedPage]
    )
    #expect(states[4].failure?.error == .httpStatus(500))
    #expect(states[4].failure?.request.page == 2)
    #expect(states.last?.movies.count == 6)
  }

  @Test(arguments: Architecture.allCases)
  func refreshCancelsThePageInFlight(_ architecture: Architecture) {
    let scheduler = TestScheduler()
    let source = FakePageSource(scheduler: scheduler)
    let states = Self.record(architecture, source: source) { movies in
      movies.send(.loadNextPage)
      scheduler.advance(by: .seconds(1))
      movies.send(.loadNextPage)
      scheduler.advance(by: .milliseconds(500))
      movies.send(.refresh)
      movies.send(.refresh)  // while refreshing: ignored
      scheduler.advance(by: .seconds(3))
    }
    #expect(source.requests.values.map(\.value) == [1, 2, 1])
    #expect(source.cancellations.values.map(\.value) == [2])
    #expect(source.cancellations.values.map(\.time) == [.milliseconds(1_500)])
    #expect(
      states.map(\.phase) == [.initial, .paging, .loadedPage, .paging, .refreshing, .refreshed]
    )
    #expect(states.last?.movies == FakePageSource.movies(onPage: 1))
  }

  // The three architectures go through identical states for the same intents.
  @Test func identicalStatesOnEveryArchitecture() {
    let runs = Architecture.allCases.map { architecture in
      let scheduler = TestScheduler()
      let source = FakePageSource(scheduler: scheduler, totalPages: 4, failing: [3: .timeout])
      return Self.record(architecture, source: source) { movies in
        for intent in [MoviesIntent.loadNextPage, .loadNextPage, .loadNextPage, .retry, .refresh] {
          movies.send(intent)
          scheduler.advance(by: .milliseconds(700))
          movies.send(.loadNextPage)
          scheduler.advance(by: .milliseconds(700))
        }
      }
    }
    #expect(runs[0].count > 8)
    #expect(runs[1] == runs[0])
    #expect(runs[2] == runs[0])
  }

  // AT-25 (paging form): a refresh replaces the page in flight; that page's answer, arriving
  // after the refresh's, is never used.
  @Test(arguments: Architecture.allCases)
  func onlyTheLatestPageIsUsed(_ architecture: Architecture) {
    let scheduler = TestScheduler()
    let source = FakePageSource(
      scheduler: scheduler,
      latencies: [2: .seconds(3)],
      ignoresCancellation: true
    )
    let states = Self.record(architecture, source: source) { movies in
      movies.send(.loadNextPage)
      scheduler.advance(by: .seconds(1))
      movies.send(.loadNextPage)  // page 2 would answer at 4 s
      scheduler.advance(by: .milliseconds(500))
      movies.send(.refresh)  // page 1 answers at 2.5 s
      scheduler.advance(by: .seconds(10))
    }
    #expect(source.requests.values.map(\.time) == [.zero, .seconds(1), .milliseconds(1_500)])
    #expect(
      states.map(\.phase) == [.initial, .paging, .loadedPage, .paging, .refreshing, .refreshed]
    )
    #expect(states.last?.movies == FakePageSource.movies(onPage: 1))
    #expect(states.last?.batch.page == 1)
  }

  // AT-37: timeout and retry on virtual time. Each attempt gives up after 10 s; retries wait
  // 1, 2 and 4 s; against a page that never answers, the attempts start at 0, 11, 23 and 37 s
  // and the error shows at exactly 47 s.
  @Test(arguments: Architecture.allCases)
  func timeoutAndRetryOnVirtualTime(_ architecture: Architecture) {
    let scheduler = TestScheduler()
    let fake = FakePageSource(scheduler: scheduler, hanging: [1])
    let source = fake.resilient(
      timeout: .seconds(10),
      attempts: 4,
      backoff: .exponential(initial: .seconds(1)),
      scheduler: scheduler
    )
    let movies: any AppService<MoviesIntent, MoviesState> =
      switch architecture {
      case .store: StoreMovies(source: source, scheduler: scheduler)
      case .reactor: ReactorMovies(source: source)
      case .feedback: FeedbackMovies(source: source)
      }
    let errors = Recorder<Duration>()
    let subscription = movies.states.subscribe(onNext: { state in
      if state.phase == .error { errors.append(scheduler.now.offset) }
    })
    movies.send(.loadNextPage)
    scheduler.advance(to: SchedulerInstant(offset: .milliseconds(46_999)))
    #expect(errors.values.isEmpty)
    #expect(movies.currentState.phase == .paging)
    scheduler.advance(to: SchedulerInstant(offset: .seconds(47)))
    subscription.dispose()
    #expect(fake.requests.values.map(\.time) == [.zero, .seconds(11), .seconds(23), .seconds(37)])
    #expect(
      fake.cancellations.values.map(\.time) == [
        .seconds(10), .seconds(21), .seconds(33), .seconds(47),
      ]
    )
    #expect(errors.values == [.seconds(47)])
    #expect(movies.currentState.failure?.error == .timeout)
  }
}
