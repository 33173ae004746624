public import AppSupport
import CascadeStreams
public import Foundation
public import InspectorLink

/// A front's session with the movie list on `architecture`: live, recorded to `recording` if
/// given, and inspected live through `inspector` if given.
///
/// ```swift
/// let session = makeMoviesSession(.store, client: client, command: "list", recordingTo: url)
/// let state = try await session.perform(.loadNextPage) { !$0.isLoading }
/// ```
///
/// - Parameters:
///   - architecture: The architecture to build the service on.
///   - client: Where pages come from (the HTTP client).
///   - command: The front's command, recorded in the session's header.
///   - recording: The file to record the session to (created or replaced), or `nil`.
///   - inspector: The live inspection endpoint (`movies list|browse --inspect`), or `nil`. Its
///     "replay to here" replays into a fresh list with no page source: no request is made.
/// - Returns: The session; its list is empty.
public func makeMoviesSession(
  _ architecture: Architecture,
  client: any MoviePageSource,
  command: String,
  recordingTo recording: URL? = nil,
  inspector: LiveInspector? = nil
) -> AppSession<MoviesIntent, MoviesState> {
  MoviesApp.session(
    architecture,
    client,
    offline: { _ in NoPageSource() },
    start: SessionNoStart(),
    command: command,
    recordingTo: recording,
    observers: inspector.map { [$0] } ?? []
  )
}

/// A session that replays the recording at `url` into a fresh movie list on `architecture`: the
/// recorded states, and no request (the service has no client: the recorded pages and failures
/// are replayed).
///
/// ```swift
/// let session = try replayMoviesSession(.store, contentsOf: url, command: "list")
/// await session.replayRecording()  // or drive it turn by turn, as the front did
/// ```
///
/// - Parameters:
///   - architecture: The architecture the recording was made on.
///   - url: The recording.
///   - command: The front's command: the recorded one.
/// - Returns: The session, which has replayed nothing yet.
/// - Throws: ``SessionReplayError`` when the recording is missing, unreadable, damaged, or of
///   another app, architecture or command.
public func replayMoviesSession(
  _ architecture: Architecture,
  contentsOf url: URL,
  command: String
) throws(SessionReplayError) -> AppSession<MoviesIntent, MoviesState> {
  try MoviesApp.replay(architecture, contentsOf: url, command: command) { _ in NoPageSource() }
}

/// The page source of a replayed service: a replay runs no effect, so it is never asked; if it
/// were, every page would fail, and the replay would not print what the live run printed.
struct NoPageSource: MoviePageSource {
  func page(_ number: Int) -> Observable<MoviePage, MoviesError> {
    .error(.transport("a replay makes no request"))
  }
}

/// A Swift Testing source file that replays the movie list's recording at `url` through the
/// exhaustive `TestStore` of the architecture that made it, step by step, each page request
/// answered with its recorded page or failure (see `RecordingTestBlueprint.recordingTest`).
///
/// - Parameters:
///   - url: A recording made with `movies list|browse --record`.
///   - suite: The test suite's name.
///   - generator: The command that makes the file, named in its header.
/// - Returns: The source file.
/// - Throws: `RecordingTestError` when the recording cannot be read or replayed.
public func moviesRecordingTest(
  contentsOf url: URL,
  suite: String,
  generator: String
) async throws(RecordingTestError) -> String {
  try await MoviesApp.recordingTest(contentsOf: url, suite: suite, generator: generator)
}

/// What a page request ended with: its page, or its failure.
enum MoviePageOutcome: Sendable, Equatable, Codable {
  /// The page answered the request.
  case page(PageRequest, MoviePage)
  /// The request failed.
  case failed(PageRequest, MoviesError)

  /// The request it answers.
  var request: PageRequest {
    switch self {
    case .page(let request, _), .failed(let request, _): request
    }
  }
}

/// The page source of a test generated from a recording: the n-th page asked for is request n's
/// (each request begun asks once, ids counting from 1), answered with its recorded page or
/// failure once the test releases it; a page number other than the recorded request's is a
/// problem of `effects`.
struct RecordedPageSource: MoviePageSource {
  let effects: RecordedEffects<MoviePageOutcome>
  private let asked = LockedValue(0)

  init(_ effects: RecordedEffects<MoviePageOutcome>) {
    self.effects = effects
  }

  func page(_ number: Int) -> Observable<MoviePage, MoviesError> {
    let id = asked.withLock { asked in
      asked += 1
      return asked
    }
    let effects = effects
    return Observable.task { () async throws(MoviesError) -> MoviePage in
      guard let outcome = await effects.outcome(forKey: id) else {
        throw .transport("the recording holds no answer to request \(id)")
      }
      if outcome.request.page != number {
        effects.report(
          "request \(id) asked for page \(number), and the recording's for page "
            + "\(outcome.request.page)"
        )
      }
      switch outcome {
      case .page(_, let page): return page
      case .failed(_, let error): throw error
      }
    }
  }
}

/// The movie list as its session recordings see it.
enum MoviesApp: SessionBlueprint {
  typealias Intent = MoviesIntent
  typealias State = MoviesState
  typealias Start = SessionNoStart
  /// The store's events.
  typealias StoreInput = MoviesEvent
  /// The reactor's actions, with their mutations.
  typealias ReactorInput = MoviesIntent
  /// The feedback loop's events.
  typealias FeedbackInput = MoviesEvent
  static var name: String { "movies" }

  /// The movie list on a store.
  static var store: ArchitectureBuild<any MoviePageSource, StoreSession<MoviesApp>, StoreMovies> {
    ArchitectureBuild(isEffectOutcome: { event, _ in event.isPageOutcome }) {
      StoreMovies(source: $0, middlewares: $1)
    }
    .restoring { StoreMovies(source: $0, initialState: $1) }
  }

  /// The movie list on a reactor.
  static var reactor:
    ArchitectureBuild<any MoviePageSource, ReactorSession<MoviesApp>, ReactorMovies>
  {
    ArchitectureBuild(
      isEffectOutcome: { _, mutation in
        (mutation as? MoviesReactor.Mutation)?.isPageOutcome ?? false
      }
    ) { ReactorMovies(source: $0, middlewares: $1) }
    .restoring { ReactorMovies(source: $0, initialState: $1) }
  }

  /// The movie list on a feedback loop.
  static var feedback:
    ArchitectureBuild<any MoviePageSource, FeedbackSession<MoviesApp>, FeedbackMovies>
  {
    ArchitectureBuild(isEffectOutcome: { event, _ in event.isPageOutcome }) {
      FeedbackMovies(source: $0, middlewares: $1)
    }
    .restoring { FeedbackMovies(source: $0, initialState: $1, reacting: false) }
  }
}

extension RecordReducer where State == MoviesState {
  /// The movie list as a session recording made on `architecture` drives it, from an empty
  /// list, with no request: the store's and the loop's recorded events, or the reactor's
  /// recorded mutations, reduced as the service reduces them.
  ///
  /// ```swift
  /// var machine = RecordReducer.movies(.reactor)
  /// try machine.apply(recordLine: line)
  /// ```
  public static func movies(_ architecture: Architecture) -> Self {
    let key = "\(MoviesApp.name).\(architecture.rawValue)"
    switch architecture {
    case .store, .feedback:
      return .inputs(
        MoviesEvent.self,
        of: key,
        initial: MoviesState(),
        reduce: MoviesEvent.reduce,
        isEffectOutcome: \.isPageOutcome
      )
    case .reactor:
      return .mutations(
        MoviesReactor.Mutation.self,
        of: key,
        initial: MoviesState(),
        reduce: { state, mutation in mutation.apply(to: &state) },
        isEffectOutcome: \.isPageOutcome
      )
    }
  }
}

extension MoviesApp: RecordingTestBlueprint {
  /// A page request's outcome.
  typealias EffectOutcome = MoviePageOutcome

  /// Pages from the recording: no server, no network.
  static func testEnvironment(
    start: SessionNoStart,
    effects: RecordedEffects<MoviePageOutcome>
  ) -> any MoviePageSource {
    RecordedPageSource(effects)
  }

  /// The page or failure that a response carries, keyed by its request's id: a store's or a
  /// loop's event, or a reactor's mutation.
  static func effectOutcome(
    of input: any Sendable,
    mutation: (any Sendable)?
  )
    -> (key: Int?, outcome: MoviePageOutcome)?
  {
    let outcome: MoviePageOutcome
    switch (mutation as? MoviesReactor.Mutation, input as? MoviesEvent) {
    case (.response(let request, let page)?, _), (nil, .response(let request, let page)?):
      outcome = .page(request, page)
    case (.failed(let request, let error)?, _), (nil, .failed(let request, let error)?):
      outcome = .failed(request, error)
    default:
      return nil
    }
    return (outcome.request.id, outcome)
  }
}
