import AppTestSupport
import CascadeStreams
import CascadeTesting
import MoviesCore
import Testing

/// The failing-then-retried paging of `MoviesServiceTests.failsThenRetries`, asserted
/// exhaustively with a `TestStore` on the reactor and on the feedback loop: each intent's state
/// change, each page's (or failure's) arrival and state change, and nothing left running.
@Suite(.checksResources)
struct MoviesTestStoreTests {
  /// The page the fake source serves for `number`, out of three.
  static func page(_ number: Int) -> MoviePage {
    MoviePage(
      page: number,
      totalResults: 9,
      totalPages: 3,
      results: FakePageSource.movies(onPage: number)
    )
  }

  static let first = PageRequest(id: 1, page: 1, kind: .next)
  static let second = PageRequest(id: 2, page: 2, kind: .next)
  static let retried = PageRequest(id: 3, page: 2, kind: .retry)

  /// The architectures with a test store here: the reactor and the feedback loop.
  enum Tested: String, CaseIterable, CustomTestStringConvertible {
    case reactor, feedbackLoop
    var testDescription: String { rawValue }
  }

  @Test(arguments: Tested.allCases)
  func failsThenRetries(_ tested: Tested) async {
    let clock = TestScheduler()
    let source = FakePageSource(scheduler: clock, failing: [2: .httpStatus(500)])
    switch tested {
    case .reactor:
      await Self.failThenRetry(
        TestStore(
          reactor: MoviesReactor(source: source, scheduler: ImmediateScheduler.instance),
          clock: clock
        ),
        intent: { $0 },
        response: MoviesReactor.Mutation.response,
        failed: MoviesReactor.Mutation.failed
      )
    case .feedbackLoop:
      await Self.failThenRetry(
        TestStore(loop: FeedbackMovies(source: source).loop, clock: clock),
        intent: MoviesEvent.intent,
        response: MoviesEvent.response,
        failed: MoviesEvent.failed
      )
    }
    #expect(source.requests.values.map(\.value) == [1, 2, 2])
  }

  /// The script, in the architecture's own words: how it sends an intent, and what it receives
  /// for a page and for a failure.
  static func failThenRetry<Architecture: TestStoreArchitecture>(
    _ store: TestStore<Architecture>,
    intent: (MoviesIntent) -> Architecture.Action,
    response: (PageRequest, MoviePage) -> Architecture.Received,
    failed: (PageRequest, MoviesError) -> Architecture.Received
  ) async where Architecture.State == MoviesState, Architecture.Received: Equatable {
    await store.send(intent(.loadNextPage)) {
      $0.request = Self.first
      $0.requestCount = 1
      $0.phase = .paging
    }
    await store.receive(response(Self.first, Self.page(1)), within: .seconds(1)) {
      $0.request = nil
      $0.movies = FakePageSource.movies(onPage: 1)
      $0.batch = Self.page(1)
      $0.phase = .loadedPage
    }
    await store.send(intent(.retry))  // nothing failed: no change
    await store.send(intent(.loadNextPage)) {
      $0.request = Self.second
      $0.requestCount = 2
      $0.phase = .paging
    }
    await store.receive(failed(Self.second, .httpStatus(500)), within: .seconds(1)) {
      $0.request = nil
      $0.failure = PageFailure(request: Self.second, error: .httpStatus(500))
      $0.phase = .error
    }
    await store.send(intent(.retry)) {
      $0.request = Self.retried
      $0.requestCount = 3
      $0.failure = nil
      $0.phase = .retry
    }
    await store.receive(response(Self.retried, Self.page(2)), within: .seconds(1)) {
      $0.request = nil
      $0.movies += FakePageSource.movies(onPage: 2)
      $0.batch = Self.page(2)
      $0.phase = .loadedPage
    }
    await store.finish()
  }
}
