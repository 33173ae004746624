import CascadeFeedback
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

// The ReactiveFeedback seed's examples (seeds/002), ported with import and stream-type changes
// only (ReactiveSwift's `Signal<T, Never>`/`SignalProducer<T, E>` → `Observable<T, E>`), where
// that compiles. The seed's text lost its generic parameters (`Results<T>`, `Feedback<State,
// Event>`) in extraction; they are restored from ReactiveFeedback's own README.
//
// Port changes beyond imports and stream types:
// 1. `: Sendable` on `Results` (with `T: Sendable`), `Context`, `State` and `Event`: Cascade's
//    feedback loop carries states and events across threads, and Swift 6 checks it. (Implicit
//    `Sendable` is not inferred for a generic struct.) Foundation's `NSError` is not `Sendable` in
//    swift-corelibs-foundation, so this file declares a `Sendable` `NSError` of its own (a domain
//    and a code, all the seed uses), which the seed's text then names unchanged.
// 2. The `State` members the snippets use but the seed never shows (`context`, `paging`,
//    `nextPage`, `lastError`, `retryPage`) are added in an extension, as ReactiveFeedback's example
//    app has them.
// 3. `return` dropped in one-expression functions and closures: the house lint
//    (OmitExplicitReturns), not the compiler.
// 4. The counter example's `Event` is renamed `CounterEvent` (the paging example's `Event` is in the
//    same file), its `Feedback`s get explicit `<Int, CounterEvent>` (the seed's text lost them), and
//    `self.plusButton.reactive.controlEvents(.touchUpInside)` → `plusButton.touchUpInside` (no
//    UIKit).
// 5. The counter example's `label.reactive.text <~ system.map(String.init)` →
//    `system.map(String.init).subscribe(onNext:)` into a recorder: no UIKit label and no `<~`
//    binding operator (ReactiveCocoa's). Its `SignalProducer.system(initial:reduce:feedbacks:)`
//    is `Observable.system(initial:reduce:feedbacks:)` as written (a stream-type change): one
//    loop per subscription, on the main queue by default, which the test waits for.
// (`retrySignal.map { Event.retry }`, returned where an `Observable` is expected, compiles as
// written, as do the counter example's `.map { _ in Event.increment }` feedbacks, and
// `.flatMapError { … }`, ReactiveSwift's spelling of `catch`. `SignalProducer(value: x)` →
// `Observable.just(x)` counts as a stream-type change, as Combine's `Just(x)` does.)

private struct Movie: Equatable {
  let id: Int
  let title: String
}

/// Stands in for Foundation's `NSError`, which is not `Sendable` on Linux: the domain and code the
/// seed's failures carry.
private struct NSError: Error, Sendable, Equatable {
  let domain: String
  let code: Int
}

// MARK: - State

private struct Results<T: Sendable>: Sendable {
  let page: Int
  let totalResults: Int
  let totalPages: Int
  let results: [T]

  static func empty() -> Results<T> {
    Results<T>(page: 0, totalResults: 0, totalPages: 0, results: [])
  }
}

private struct Context: Sendable {
  var batch: Results<Movie>
  var movies: [Movie]

  static var empty: Context {
    Context(batch: Results.empty(), movies: [])
  }
}

private enum State: Sendable {
  case initial
  case paging(context: Context)
  case loadedPage(context: Context)
  case refreshing(context: Context)
  case refreshed(context: Context)
  case error(error: NSError, context: Context)
  case retry(context: Context)
}

/// What the seed's snippets read from `State` (from ReactiveFeedback's example app).
extension State {
  var context: Context {
    switch self {
    case .initial: return Context.empty
    case .paging(let context), .loadedPage(let context), .refreshing(let context),
      .refreshed(let context), .error(_, let context), .retry(let context):
      return context
    }
  }

  var paging: Bool {
    if case .paging = self { return true }
    return false
  }

  var nextPage: Int? {
    guard case .paging(let context) = self else { return nil }
    return context.batch.page + 1
  }

  var retryPage: Int? {
    guard case .retry(let context) = self else { return nil }
    return context.batch.page + 1
  }

  var lastError: NSError? {
    guard case .error(let error, _) = self else { return nil }
    return error
  }
}

// MARK: - Event

private enum Event: Sendable {
  case startLoadingNextPage
  case response(Results<Movie>)
  case failed(NSError)
  case retry
}

// MARK: - Reducer

private enum Paging {
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
}

// MARK: - Feedback

/// The seed's `URLSession.shared.fetchMovies(page:)`, faked: pages of two films on a test
/// scheduler, failing the pages listed in `failing` once each.
private final class MovieService: Sendable {
  let scheduler: TestScheduler
  private let pages: LockedValue<(failing: Set<Int>, requested: [Int])>

  init(scheduler: TestScheduler, failing: Set<Int> = []) {
    self.scheduler = scheduler
    pages = LockedValue((failing, []))
  }

  /// The pages asked for, in order.
  var requested: [Int] { pages.withLock { $0.requested } }

  func fetchMovies(page: Int) -> Observable<Results<Movie>, NSError> {
    let fails = pages.withLock { pages in
      pages.requested.append(page)
      return pages.failing.remove(page) != nil
    }
    if fails {
      return Observable<Results<Movie>, NSError>.error(NSError(domain: "movies", code: page))
        .delay(.seconds(1), scheduler: scheduler)
    }
    let movies = [
      Movie(id: page * 2 - 1, title: "Film \(page * 2 - 1)"),
      Movie(id: page * 2, title: "Film \(page * 2)"),
    ]
    return Observable.just(Results(page: page, totalResults: 6, totalPages: 3, results: movies))
      .delay(.seconds(1), scheduler: scheduler)
  }
}

/// Stands in for Foundation's `URLSession`, so the seed's `URLSession.shared.fetchMovies(page:)`
/// reads as written; a test installs its service.
private enum URLSession {
  static let installed = LockedBox(MovieService(scheduler: TestScheduler()))
  static var shared: MovieService { installed.value }
}

private func loadNextFeedback(
  for nearBottomSignal: Observable<Void, Never>
) -> Feedback<State, Event> {
  Feedback(predicate: { !$0.paging }) { _ in
    nearBottomSignal
      .map { Event.startLoadingNextPage }
  }
}

private func pagingFeedback() -> Feedback<State, Event> {
  Feedback(skippingRepeated: { $0.nextPage }) { (nextPage) -> Observable<Event, Never> in
    URLSession.shared.fetchMovies(page: nextPage)
      .map(Event.response)
      .flatMapError { (error) -> Observable<Event, Never> in
        Observable.just(Event.failed(error))
      }
  }
}

private func retryFeedback(for retrySignal: Observable<Void, Never>) -> Feedback<State, Event> {
  Feedback(skippingRepeated: { $0.lastError }) { _ -> Observable<Event, Never> in
    retrySignal.map { Event.retry }
  }
}

private func retryPagingFeedback() -> Feedback<State, Event> {
  Feedback(skippingRepeated: { $0.retryPage }) { (nextPage) -> Observable<Event, Never> in
    URLSession.shared.fetchMovies(page: nextPage)
      .map(Event.response)
      .flatMapError { (error) -> Observable<Event, Never> in
        Observable.just(Event.failed(error))
      }
  }
}

// MARK: - The counter example

private enum CounterEvent {
  case increment
  case decrement
}

/// UIKit's buttons and label, headless.
private final class Button: Sendable {
  let touchUpInside = PublishSubject<Void, Never>()
}

// MARK: - Tests

@Suite(.serialized, .checksResources)
struct ReactiveFeedbackExampleTests {
  @Test func pagingWithRetry() async {
    let scheduler = TestScheduler()
    URLSession.installed.value = MovieService(scheduler: scheduler, failing: [2])
    let nearBottom = PublishSubject<Void, Never>()
    let retry = PublishSubject<Void, Never>()

    let system = FeedbackLoop(
      initial: State.initial,
      reduce: Paging.reduce,
      feedbacks: [
        loadNextFeedback(for: nearBottom.asObservable()),
        pagingFeedback(),
        retryFeedback(for: retry.asObservable()),
        retryPagingFeedback(),
      ],
      scheduler: ImmediateScheduler.instance
    )

    nearBottom.onNext(())
    #expect(system.currentState.paging)
    await scheduler.advance(by: .seconds(1))
    #expect(system.currentState.context.movies.map(\.id) == [1, 2])

    nearBottom.onNext(())  // page 2 fails
    await scheduler.advance(by: .seconds(1))
    #expect(system.currentState.lastError?.code == 2)

    retry.onNext(())  // retries page 2
    await scheduler.advance(by: .seconds(1))
    #expect(system.currentState.context.movies.map(\.id) == [1, 2, 3, 4])
    #expect(URLSession.shared.requested == [1, 2, 2])

    await system.shutdown()
    await system.finish()
  }

  @Test func theCounterExample() async {
    let plusButton = Button()
    let minusButton = Button()
    let label = Recorder<String>()

    let increment = Feedback<Int, CounterEvent> { _ in
      plusButton
        .touchUpInside
        .map { _ in CounterEvent.increment }
    }

    let decrement = Feedback<Int, CounterEvent> { _ in
      minusButton
        .touchUpInside
        .map { _ in CounterEvent.decrement }
    }

    let system = Observable.system(
      initial: 0,
      reduce: { (count, event) -> Int in
        switch event {
        case .increment:
          return count + 1
        case .decrement:
          return count - 1
        }
      },
      feedbacks: [increment, decrement]
    )

    let binding = system.map(String.init).subscribe(onNext: { label.append($0) })

    // The loop's events and states go through the main queue: each tap is waited for.
    #expect(label.values == ["0"])
    plusButton.touchUpInside.onNext(())
    #expect(await label.wait(forCount: 2))
    plusButton.touchUpInside.onNext(())
    #expect(await label.wait(forCount: 3))
    minusButton.touchUpInside.onNext(())
    #expect(await label.wait(forCount: 4))
    #expect(label.values == ["0", "1", "2", "1"])

    binding.dispose()
  }
}
