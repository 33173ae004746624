import AppSupport
import CascadeStreams
public import Foundation
public import InspectorLink
import MoviesCore
import RPGCore
import TodoCore

/// The Cascade Inspector's server: it serves one session recording, or a running app's live
/// session, with its page and its JSON API, on the loopback interface, to whoever holds its
/// token.
///
/// ```swift
/// let inspector = try Inspector(recordingAt: "game.jsonl")
/// let url = try await inspector.start(port: 0)  // http://127.0.0.1:PORT/?token=…
/// ```
///
/// **Security.** It listens on 127.0.0.1 only. It answers only requests whose `Host` header is
/// `127.0.0.1:PORT` or `localhost:PORT` (421 otherwise: a page on another site that rebinds its
/// name to 127.0.0.1 cannot read it) and that carry the token printed at start, in the URL's
/// `token` query parameter or in the cookie the first page load sets (403 otherwise); only `GET`
/// (405 otherwise), but for live mode's "replay to here" and a recording's "skip" and "commit",
/// a `POST` that must carry the token in an `X-Cascade-Token` header (which another site's page
/// cannot set). It serves its own page
/// and the JSON API, and nothing the page sends can run anything: a recording is only read, and
/// replayed through the app's reducer without effects; a live app replays into a fresh service
/// in replay mode, without effects.
public final class Inspector: Sendable {
  /// The recording's path, or the live endpoint's URL without its token.
  public let path: String
  /// The secret every request must carry.
  public let token: String
  private let api: any InspectionAPI
  private let running = LockedValue<LoopbackServer?>(nil)

  /// Opens and indexes the recording at `path`; nothing is served yet.
  ///
  /// The recording is an app's session (`rpg|movies|todo --record FILE`), whose states the
  /// inspector computes with the app's reducer, or a recording of an app of your own made by
  /// CascadeMiddleware's `RecordingMiddleware` (`recordingStates: true` writes the states it
  /// shows), which with `follow` is followed as it grows.
  ///
  /// - Parameters:
  ///   - path: The recording.
  ///   - follow: Whether to follow a `RecordingMiddleware` recording as it is written.
  ///   - token: The secret requests must carry (default: 32 random bytes, in hexadecimal).
  /// - Throws: ``InspectorError`` when the file is missing or unreadable, is not a recording,
  ///   is damaged, or is of an app the inspector does not read; with `follow`, when it is an
  ///   app's session recording (``InspectorError/cannotFollow(path:app:)``).
  public init(
    recordingAt path: String,
    follow: Bool = false,
    token: String = Inspector.makeToken()
  )
    throws(InspectorError)
  {
    if FollowedRecording.reads(path) {
      api = try FollowedRecording(path: path, follow: follow)
      self.path = path
      self.token = token
      return
    }
    let index = try RecordingIndex(path: path)
    if follow { throw .cannotFollow(path: path, app: index.header.app) }
    switch index.header.app {
    case "rpg":
      api = Inspection(
        index: index,
        initial: GameRecordMachine(architecture: index.header.architecture)
      )
    case "todo":
      api = Inspection(
        index: index,
        initial: RecordReducer.todo(
          index.header.architecture,
          start: try index.start(as: TodoState.self)
        )
      )
    case "movies":
      api = Inspection(index: index, initial: RecordReducer.movies(index.header.architecture))
    default:
      throw .unknownApp(path: path, app: index.header.app)
    }
    self.path = path
    self.token = token
  }

  /// Connects to a running app's live endpoint (`rpg|movies|todo --inspect` print its URL,
  /// `ws://127.0.0.1:PORT/live?token=…`) and keeps reading its steps; nothing is served yet.
  ///
  /// - Throws: ``InspectorError/liveUnreachable(url:reason:)`` when the endpoint cannot be
  ///   reached, refuses the token, or sends no hello.
  public init(live url: URL, token: String = Inspector.makeToken()) async throws(InspectorError) {
    let live = LiveInspection(url: url)
    try await live.connect()
    api = live
    path = live.source
    self.token = token
  }

  // MARK: - The API, without a server

  /// What `/api/summary` serves: the session's app, architecture and command, its number of
  /// steps, and how many there are of each kind, as JSON.
  public func summary() -> Data { api.summary() }

  /// What `/api/steps` serves: at most `count` (up to 1,000) steps of the timeline from position
  /// `from`, or of its steps of `kind` whose name contains `search` (ignoring case), as JSON;
  /// positions out of range give fewer steps, or none.
  public func steps(from: Int, count: Int, kind: StepKind? = nil, search: String = "") -> Data {
    api.steps(from: from, count: count, kind: kind, search: search)
  }

  /// What `/api/step/I` serves: the state after step `index` and its difference from the state
  /// before, as JSON; `nil` if there is no such step.
  ///
  /// - Throws: When the step's record cannot be read from the recording (the page shows it as
  ///   the answer's 422).
  public func step(_ index: Int) throws -> Data? { try api.step(index) }

  /// What `POST /api/skip/I` serves: skips step `index` of a recording, or brings it back, so
  /// that the states after it are computed without it, as JSON (`{"skipped":[…],"origin":N}`);
  /// `nil` for a live app's or a followed file's steps, or a step before the start.
  public func toggleSkip(_ index: Int) -> Data? { api.toggleSkip(index) }

  /// What `POST /api/commit/I` serves: makes the state after step `index` of a recording the
  /// start, so that the timeline begins after it; the same answer as ``toggleSkip(_:)``.
  public func commit(at index: Int) -> Data? { api.commit(at: index) }

  /// What `/api/export` serves: the steps as the timeline shows them (after a commit, without
  /// skipped steps), as a recording with states that `cascade-inspect FILE` opens again.
  ///
  /// - Throws: When a step's record cannot be read from the recording.
  public func export() throws -> Data { try api.export() }

  /// A new random token: 32 bytes from the system's generator, in hexadecimal.
  public static func makeToken() -> String { LoopbackServer.makeToken() }

  /// Why the server could not start.
  public typealias StartError = LoopbackServer.StartError

  /// Starts listening on 127.0.0.1 and `port` (0: a free port), and returns the page's URL,
  /// with the port bound and the token: `http://127.0.0.1:PORT/?token=…`.
  ///
  /// - Throws: ``StartError`` when the port is in use or the server cannot listen.
  public func start(port: UInt16 = 0) async throws(StartError) -> URL {
    let handler = InspectorHandler(token: token, api: api)
    let server = try await LoopbackServer.start(port: port, handler: handler)
    handler.port.withLock { $0 = server.port }
    // A thread of its own: the warming takes seconds on a long recording, and must not hold a
    // thread of the cooperative pool the server answers on.
    let api = api
    api.prepareWarming()
    // The default quality of service: at `.background`, a machine busy with other work left it
    // behind for minutes, while the requests waiting for it held their threads.
    let warming = Thread { api.warm() }
    warming.start()
    running.withLock { $0 = server }
    // The token is hexadecimal: it needs no escaping in a URL.
    guard let url = URL(string: "http://127.0.0.1:\(server.port)/?token=\(token)") else {
      throw StartError(description: "cannot make the page's URL")
    }
    return url
  }

  /// Stops listening and ends every connection.
  public func stop() async {
    let server = running.withLock { running in
      defer { running = nil }
      return running
    }
    await server?.stop()
    api.close()
  }
}
