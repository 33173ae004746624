public import AppSupport
public import CascadeFeedback
public import CascadeStore
public import CascadeStreams

/// The movie list on a `FeedbackLoop`, as ReactiveFeedback's README writes it: a reducer, a
/// feedback that loads the page the state asks for, and one that loads a failed page again
/// after the user asked to retry.
///
/// Intents are sent to the loop as events; the reducer ignores those that do not apply (a
/// "next page" while one loads, after the last page) — the seed's `loadNextFeedback`, whose
/// predicate drops near-bottom scrolls while paging. A new request (a refresh) cancels the
/// feedback's effect in flight: its page, even if it arrives, is never reduced.
public final class FeedbackMovies: ContainerService {
  /// The intents the service takes.
  public typealias Intent = MoviesIntent
  /// The service's state.
  public typealias State = MoviesState

  /// The running feedback loop.
  public let loop: FeedbackLoop<MoviesState, MoviesEvent>

  /// Creates the service and starts its loop.
  ///
  /// - Parameters:
  ///   - source: Where pages come from (the HTTP client).
  ///   - scheduler: Where states are delivered. Default: at once, on the producing thread.
  ///   - initialState: The state the list starts from: an empty one unless another is given (a
  ///     live inspector's replay starts from a state it kept).
  ///   - reacting: `false`: without its feedbacks, for a replay from a state (no feedback runs
  ///     in a replay, and a loop started from a state with a request would make it before).
  ///   - middlewares: Middlewares that see every event (a session recorder).
  public init(
    source: any MoviePageSource,
    scheduler: any Scheduler = ImmediateScheduler.instance,
    initialState: MoviesState = MoviesState(),
    reacting: Bool = true,
    middlewares: [any Middleware<MoviesEvent, MoviesState>] = []
  ) {
    loop = FeedbackLoop(
      initialState: initialState,
      reduceInPlace: MoviesEvent.reduce,
      feedbacks: reacting ? [Self.pagingFeedback(source), Self.retryPagingFeedback(source)] : [],
      scheduler: scheduler,
      middlewares: middlewares
    )
  }

  /// A feedback of the movie list.
  typealias MoviesFeedback = Feedback<MoviesState, MoviesEvent>

  /// Loads the page the state asks for (next page or refresh); a new request cancels the
  /// previous one: the seed's `pagingFeedback`.
  static func pagingFeedback(_ source: any MoviePageSource) -> MoviesFeedback {
    MoviesFeedback(skippingRepeated: { $0.request?.kind == .retry ? nil : $0.request }) {
      source.events(for: $0)
    }
  }

  /// Loads a failed page again, once the user asked to retry: the seed's
  /// `retryPagingFeedback`.
  static func retryPagingFeedback(_ source: any MoviePageSource) -> MoviesFeedback {
    MoviesFeedback(skippingRepeated: { $0.request?.kind == .retry ? $0.request : nil }) {
      source.events(for: $0)
    }
  }

  /// The loop.
  public var container: FeedbackLoop<MoviesState, MoviesEvent> { loop }
}
