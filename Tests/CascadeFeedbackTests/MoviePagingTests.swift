import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// The ReactiveFeedback README's movie paging state machine, with a fake page source on
/// virtual time.
@Suite(.checksResources)
struct MoviePagingTests {
  typealias State = Movies.State

  static func context(throughPage page: Int) -> Movies.Context {
    guard page > 0 else { return .empty }
    return Movies.Context(
      batch: Movies.Results(
        page: page,
        totalResults: 15,
        totalPages: 5,
        results: Movies.PageSource.movies(onPage: page)
      ),
      movies: (1...page).flatMap(Movies.PageSource.movies(onPage:))
    )
  }

  static func loop(
    source: Movies.PageSource,
    nearBottom: Observable<Void, Never>,
    retry: Observable<Void, Never>
  ) -> FeedbackLoop<State, Movies.Event> {
    FeedbackLoop(
      initialState: .initial,
      reduce: Movies.reduce,
      feedbacks: [
        Movies.loadNextFeedback(for: nearBottom),
        Movies.pagingFeedback(source),
        Movies.retryFeedback(for: retry),
        Movies.retryPagingFeedback(source),
      ],
      scheduler: source.scheduler
    )
  }

  // Pages on near-bottom scrolls (ignored while a page loads), fails on page 2, retries it when
  // the user asks (a retry tap outside an error is ignored), and goes on paging.
  @Test func pagesFailsAndRetries() async {
    let scheduler = TestScheduler()
    let source = Movies.PageSource(scheduler: scheduler, failing: [2: 1])
    let nearBottom = scheduler.createHotObservable([
      .next(.seconds(1), ()),
      .next(.milliseconds(1_500), ()),  // while page 1 loads: ignored
      .next(.seconds(3), ()),
      .next(.seconds(7), ()),
    ])
    let retry = scheduler.createHotObservable([
      .next(.milliseconds(2_500), ()),  // no error to retry: ignored
      .next(.seconds(5), ()),
    ])
    let loop = Self.loop(
      source: source,
      nearBottom: nearBottom.asObservable(),
      retry: retry.asObservable()
    )

    let states = scheduler.recordStates(of: loop, until: .seconds(10))

    states.assertEvents([
      .next(.zero, .initial),
      .next(.seconds(1), .paging(context: .empty)),
      .next(.seconds(2), .loadedPage(context: Self.context(throughPage: 1))),
      .next(.seconds(3), .paging(context: Self.context(throughPage: 1))),
      .next(
        .seconds(4),
        .error(error: Movies.PageError(page: 2), context: Self.context(throughPage: 1))
      ),
      .next(.seconds(5), .retry(context: Self.context(throughPage: 1))),
      .next(.seconds(6), .loadedPage(context: Self.context(throughPage: 2))),
      .next(.seconds(7), .paging(context: Self.context(throughPage: 2))),
      .next(.seconds(8), .loadedPage(context: Self.context(throughPage: 3))),
    ])
    #expect(
      source.requests.values == [
        Recorded(time: .seconds(1), value: 1),
        Recorded(time: .seconds(3), value: 2),
        Recorded(time: .seconds(5), value: 2),
        Recorded(time: .seconds(7), value: 3),
      ]
    )
    #expect(loop.currentState.context.movies.map(\.id) == Array(1...9))
    await loop.shutdown()
  }

  // A retry that fails again returns to the error state with the same error; the retry feedback
  // (skipping repeated errors) starts afresh, so the next tap retries again.
  @Test func aFailedRetryCanBeRetriedAgain() async {
    let scheduler = TestScheduler()
    let source = Movies.PageSource(scheduler: scheduler, failing: [1: 2])
    let nearBottom = scheduler.createHotObservable([.next(.seconds(1), ())])
    let retry = scheduler.createHotObservable([.next(.seconds(3), ()), .next(.seconds(5), ())])
    let loop = Self.loop(
      source: source,
      nearBottom: nearBottom.asObservable(),
      retry: retry.asObservable()
    )

    scheduler.assertStates(
      of: loop,
      until: .seconds(10),
      equal: [
        .initial,
        .paging(context: .empty),
        .error(error: Movies.PageError(page: 1), context: .empty),
        .retry(context: .empty),
        .error(error: Movies.PageError(page: 1), context: .empty),
        .retry(context: .empty),
        .loadedPage(context: Self.context(throughPage: 1)),
      ]
    )
    #expect(source.requests.values.map(\.value) == [1, 1, 1])
    await loop.shutdown()
  }

  // Stopping the loop while a page loads cancels the request: its response never arrives.
  @Test func stoppingWhileAPageLoadsCancelsTheRequest() {
    let scheduler = TestScheduler()
    let source = Movies.PageSource(scheduler: scheduler)
    let nearBottom = scheduler.createHotObservable([.next(.seconds(1), ())])
    let loop = Self.loop(
      source: source,
      nearBottom: nearBottom.asObservable(),
      retry: .never()
    )
    let states = scheduler.recordStates(
      of: loop,
      events: [.completed(.milliseconds(1_500))],
      until: .seconds(5)
    )
    states.assertEvents([
      .next(.zero, .initial),
      .next(.seconds(1), .paging(context: .empty)),
      .completed(.milliseconds(1_500)),
    ])
    #expect(scheduler.pendingCount == 0)
  }
}
