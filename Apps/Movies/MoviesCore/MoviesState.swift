public import AppSupport
import CascadeStreams

/// The movie list: the films loaded so far, and what is going on.
///
/// The phases are those of ReactiveFeedback's movie example: `initial`, `paging`, `loadedPage`,
/// `refreshing`, `refreshed`, `error`, `retry`. The transitions are pure functions of this
/// value, shared by the three services (``FeedbackMovies``, ``ReactorMovies``, ``StoreMovies``),
/// so that they go through identical states:
///
/// - ``request(for:)`` says which page an intent starts loading, if any;
/// - ``begin(_:)``, ``receive(_:for:)`` and ``fail(_:for:)`` apply the start of a request, its
///   page and its failure.
///
/// A page that answers a request other than the one in flight (a request that was cancelled)
/// changes nothing.
public struct MoviesState: Sendable, Equatable, Codable, CustomStringConvertible {
  /// What the list is doing.
  public enum Phase: Sendable, Equatable, Hashable, Codable {
    /// Nothing loaded, nothing asked.
    case initial
    /// The next page is loading.
    case paging
    /// A page arrived.
    case loadedPage
    /// Page 1 is loading again; the old films stay until it arrives.
    case refreshing
    /// Page 1 arrived after a refresh.
    case refreshed
    /// A page failed: see ``MoviesState/failure``.
    case error
    /// The page that failed is loading again.
    case retry
  }

  /// What the list is doing.
  public var phase: Phase
  /// Every film loaded, in order.
  public var movies: [Movie]
  /// The last page received (``MoviePage/empty`` before the first).
  public var batch: MoviePage
  /// The page in flight, if one is loading.
  public var request: PageRequest?
  /// The page that failed, while ``phase`` is ``Phase/error``.
  public var failure: PageFailure?
  /// How many requests were started; the id of the latest.
  public var requestCount: Int

  /// The state before anything happened.
  public init() {
    phase = .initial
    movies = []
    batch = .empty
    request = nil
    failure = nil
    requestCount = 0
  }

  /// Whether a page is loading.
  public var isLoading: Bool { request != nil }

  /// Whether the last page has been loaded.
  public var isAtEnd: Bool { batch.page > 0 && batch.page >= batch.totalPages }

  /// The page request an intent starts now, or `nil` if the intent is to be ignored.
  public func request(for intent: MoviesIntent) -> PageRequest? {
    switch intent {
    case .loadNextPage:
      guard request == nil, !isAtEnd else { return nil }
      return PageRequest(id: requestCount + 1, page: batch.page + 1, kind: .next)
    case .refresh:
      guard request?.kind != .refresh else { return nil }
      return PageRequest(id: requestCount + 1, page: 1, kind: .refresh)
    case .retry:
      guard phase == .error, let failure else { return nil }
      return PageRequest(id: requestCount + 1, page: failure.request.page, kind: .retry)
    }
  }

  /// Starts `request`: it becomes the page in flight, replacing (cancelling) any other.
  public mutating func begin(_ request: PageRequest) {
    self.request = request
    requestCount = max(requestCount, request.id)
    failure = nil
    switch request.kind {
    case .next: phase = .paging
    case .refresh: phase = .refreshing
    case .retry: phase = .retry
    }
  }

  /// Applies the page that answered `request`; ignored if `request` is not the one in flight.
  ///
  /// Page 1 replaces the films; any other page is appended. A film is listed once: one whose id
  /// is already in the list (from an earlier page, or earlier on the same page) is left out,
  /// the first one kept.
  public mutating func receive(_ page: MoviePage, for request: PageRequest) {
    guard self.request == request else { return }
    self.request = nil
    if page.page <= 1 { movies = [] }
    var seen = Set(movies.map(\.id))
    movies += page.results.filter { seen.insert($0.id).inserted }
    batch = page
    phase = request.kind == .refresh ? .refreshed : .loadedPage
  }

  /// Applies the failure of `request`; ignored if `request` is not the one in flight.
  public mutating func fail(_ error: MoviesError, for request: PageRequest) {
    guard self.request == request else { return }
    self.request = nil
    failure = PageFailure(request: request, error: error)
    phase = .error
  }

  /// Applies an intent: starts the request it asks for, if any.
  public mutating func apply(_ intent: MoviesIntent) {
    if let request = request(for: intent) { begin(request) }
  }

  /// A one-line account: the phase, the page, the films.
  public var description: String {
    var text = "\(phase): page \(batch.page) of \(batch.totalPages), \(movies.count) films"
    if let request { text += ", loading page \(request.page) (#\(request.id), \(request.kind))" }
    if let failure { text += ", page \(failure.request.page) failed: \(failure.error)" }
    return text
  }
}

/// A request for one page, identified so that a late answer to a cancelled one is ignored.
public struct PageRequest: Sendable, Equatable, Hashable, Codable {
  /// Why a page is requested.
  public enum Kind: Sendable, Equatable, Hashable, Codable {
    /// The next page.
    case next
    /// Page 1, starting over.
    case refresh
    /// A page that failed, again.
    case retry
  }

  /// The request's number, counting from 1 for the first request of a list.
  public var id: Int
  /// The page, from 1.
  public var page: Int
  /// Why.
  public var kind: Kind

  /// Creates a request.
  public init(id: Int, page: Int, kind: Kind) {
    self.id = id
    self.page = page
    self.kind = kind
  }
}

/// A page that failed, and why.
public struct PageFailure: Sendable, Equatable, Hashable, Codable {
  /// The request that failed.
  public var request: PageRequest
  /// Why.
  public var error: MoviesError

  /// Creates a failure.
  public init(request: PageRequest, error: MoviesError) {
    self.request = request
    self.error = error
  }
}

/// What the Feedback and Store services reduce: an intent, or the outcome of a request.
public enum MoviesEvent: Sendable, Equatable, Codable, IntentInput {
  /// The user asked for something.
  case intent(MoviesIntent)
  /// A page answered a request.
  case response(PageRequest, MoviePage)
  /// A request failed.
  case failed(PageRequest, MoviesError)

  /// Whether the event is a request's outcome (an effect's), rather than the user's.
  var isPageOutcome: Bool {
    switch self {
    case .intent: false
    case .response, .failed: true
    }
  }

  /// The seed's reducer, in place: applies `event` to `state`.
  public static func reduce(_ state: inout MoviesState, _ event: MoviesEvent) {
    switch event {
    case .intent(let intent): state.apply(intent)
    case .response(let request, let page): state.receive(page, for: request)
    case .failed(let request, let error): state.fail(error, for: request)
    }
  }
}

extension MoviePageSource {
  /// The events that answer `request`: its page, or its failure; never fails itself.
  func events(for request: PageRequest) -> Observable<MoviesEvent, Never> {
    page(request.page)
      .map { MoviesEvent.response(request, $0) }
      .catch { Observable.just(MoviesEvent.failed(request, $0)) }
  }
}
