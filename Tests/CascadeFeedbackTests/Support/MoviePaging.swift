import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting

/// The movie paging state machine of the ReactiveFeedback README, with `Equatable` states and a
/// typed error in place of `NSError`.
enum Movies {
  struct Movie: Sendable, Equatable {
    let id: Int
  }

  struct Results: Sendable, Equatable {
    let page: Int
    let totalResults: Int
    let totalPages: Int
    let results: [Movie]

    static func empty() -> Results {
      Results(page: 0, totalResults: 0, totalPages: 0, results: [])
    }
  }

  struct PageError: Error, Sendable, Equatable {
    let page: Int
  }

  struct Context: Sendable, Equatable {
    var batch: Results
    var movies: [Movie]

    static var empty: Context { Context(batch: Results.empty(), movies: []) }
  }

  enum State: Sendable, Equatable {
    case initial
    case paging(context: Context)
    case loadedPage(context: Context)
    case refreshing(context: Context)
    case refreshed(context: Context)
    case error(error: PageError, context: Context)
    case retry(context: Context)

    var context: Context {
      switch self {
      case .initial: .empty
      case .paging(let context), .loadedPage(let context), .refreshing(let context),
        .refreshed(let context), .error(_, let context), .retry(let context):
        context
      }
    }

    /// Whether a page is loading: while it does, near-bottom scrolls are ignored.
    var paging: Bool {
      switch self {
      case .paging, .refreshing, .retry: true
      default: false
      }
    }

    /// The page to load now, if one should be.
    var nextPage: Int? {
      switch self {
      case .paging(let context), .refreshed(let context): context.batch.page + 1
      default: nil
      }
    }

    /// The page to load again after an error, once the user asked to retry.
    var retryPage: Int? {
      if case .retry(let context) = self { context.batch.page + 1 } else { nil }
    }

    var lastError: PageError? {
      if case .error(let error, _) = self { error } else { nil }
    }
  }

  enum Event: Sendable, Equatable {
    case startLoadingNextPage
    case response(Results)
    case failed(PageError)
    case retry
  }

  static func reduce(state: State, event: Event) -> State {
    switch event {
    case .startLoadingNextPage:
      return .paging(context: state.context)
    case .response(let batch):
      var copy = state.context
      copy.batch = batch
      copy.movies += batch.results
      return .loadedPage(context: copy)
    case .failed(let error):
      return .error(error: error, context: state.context)
    case .retry:
      return .retry(context: state.context)
    }
  }

  // MARK: - Feedbacks, as the README writes them

  static func loadNextFeedback(for nearBottom: Observable<Void, Never>) -> Feedback<State, Event> {
    Feedback(predicate: { !$0.paging }) { _ in
      nearBottom.map { Event.startLoadingNextPage }
    }
  }

  static func pagingFeedback(_ source: PageSource) -> Feedback<State, Event> {
    Feedback(skippingRepeated: { $0.nextPage }) { nextPage in
      source.fetchMovies(page: nextPage)
        .map(Event.response)
        .catch { error in Observable.just(Event.failed(error)) }
    }
  }

  static func retryFeedback(for retry: Observable<Void, Never>) -> Feedback<State, Event> {
    Feedback(skippingRepeated: { $0.lastError }) { _ in
      retry.map { Event.retry }
    }
  }

  static func retryPagingFeedback(_ source: PageSource) -> Feedback<State, Event> {
    Feedback(skippingRepeated: { $0.retryPage }) { nextPage in
      source.fetchMovies(page: nextPage)
        .map(Event.response)
        .catch { error in Observable.just(Event.failed(error)) }
    }
  }

  /// A fake movie API on virtual time: each page answers 1 s after it is requested, with three
  /// movies, or fails for the pages told to.
  final class PageSource: Sendable {
    let scheduler: TestScheduler
    let totalPages: Int
    private let failures: LockedBox<[Int: Int]>
    /// Each request: the page and the virtual time it was requested at.
    let requests = Recorder<Recorded<Int>>()

    init(scheduler: TestScheduler, totalPages: Int = 5, failing failures: [Int: Int] = [:]) {
      self.scheduler = scheduler
      self.totalPages = totalPages
      self.failures = LockedBox(failures)
    }

    static func movies(onPage page: Int) -> [Movie] {
      (1...3).map { Movie(id: (page - 1) * 3 + $0) }
    }

    func fetchMovies(page: Int) -> Observable<Results, PageError> {
      Observable.create { observer in
        self.requests.append(Recorded(time: self.scheduler.now.offset, value: page))
        let remaining = self.failures.value[page, default: 0]
        if remaining > 0 { self.failures.value[page] = remaining - 1 }
        return self.scheduler.schedule(after: .seconds(1)) {
          if remaining > 0 {
            observer.onError(PageError(page: page))
            return
          }
          observer.onNext(
            Results(
              page: page,
              totalResults: self.totalPages * 3,
              totalPages: self.totalPages,
              results: Self.movies(onPage: page)
            )
          )
          observer.onCompleted()
        }
      }
    }
  }
}
