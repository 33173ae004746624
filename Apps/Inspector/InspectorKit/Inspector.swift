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
  /// What is inspected: the recording opened, or one imported since from the page.
  private let slot: InspectionSlot
  private var api: any InspectionAPI { slot.api }
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
    slot = InspectionSlot(try Self.open(path, follow: follow))
    self.path = path
    self.token = token
  }

  /// The inspection of the recording at `path` (see ``init(recordingAt:follow:token:)``).
  static func open(_ path: String, follow: Bool) throws(InspectorError) -> any InspectionAPI {
    if FollowedRecording.reads(path) {
      return try FollowedRecording(path: path, follow: follow)
    }
    let index = try RecordingIndex(path: path)
    if follow { throw .cannotFollow(path: path, app: index.header.app) }
    switch index.header.app {
    case "rpg":
      return Inspection(
        index: index,
        initial: GameRecordMachine(architecture: index.header.architecture)
      )
    case "todo":
      return Inspection(
        index: index,
        initial: RecordReducer.todo(
          index.header.architecture,
          start: try index.start(as: TodoState.self)
        )
      )
    case "movies":
      return Inspection(index: index, initial: RecordReducer.movies(index.header.architecture))
    default:
      throw .unknownApp(path: path, app: index.header.app)
    }
  }

  /// Connects to a running app's live endpoint (`rpg|movies|todo --inspect` print its URL,
  /// `ws://127.0.0.1:PORT/live?token=…`) and keeps reading its steps; nothing is served yet.
  ///
  /// - Throws: ``InspectorError/liveUnreachable(url:reason:)`` when the endpoint cannot be
  ///   reached, refuses the token, or sends no hello.
  public init(live url: URL, token: String = Inspector.makeToken()) async throws(InspectorError) {
    let live = LiveInspection(url: url)
    try await live.connect()
    slot = InspectionSlot(live)
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
    let handler = InspectorHandler(token: token, slot: slot)
    let server = try await LoopbackServer.start(port: port, handler: handler)
    handler.port.withLock { $0 = server.port }
    Self.startWarming(api)
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
    slot.removeImports()
  }

  /// Computes `api`'s checkpoints ahead of the requests, on a thread of its own: the warming
  /// takes seconds on a long recording, and must not hold a thread of the cooperative pool the
  /// server answers on.
  static func startWarming(_ api: any InspectionAPI) {
    api.prepareWarming()
    // The default quality of service: at `.background`, a machine busy with other work left it
    // behind for minutes, while the requests waiting for it held their threads.
    let warming = Thread { api.warm() }
    warming.start()
  }
}

/// Why a recording imported from the page was refused, in one line.
struct ImportFailure: Error, CustomStringConvertible {
  var description: String
}

/// What an inspector inspects — the recording or live app it was made with, or a recording
/// imported since from the page (`POST /api/import`) — and the imported files, in a directory
/// of its own removed when the inspector stops.
final class InspectionSlot: Sendable {
  private let current: LockedValue<any InspectionAPI>
  /// The directory of imported recordings, once one was imported.
  private let imports = LockedValue<(directory: URL, count: Int)?>(nil)

  init(_ api: any InspectionAPI) {
    current = LockedValue(api)
  }

  /// The inspection every request is answered from.
  var api: any InspectionAPI { current.withLock { $0 } }

  /// The most bytes an imported recording may have: 256 MiB.
  static let importLimit = 256 << 20

  /// Reads an imported recording from `chunks` into a file of its own (at most
  /// ``importLimit`` bytes), opens it, and answers from it from now on; the previous
  /// inspection is closed.
  ///
  /// - Throws: ``ImportFailure`` when it is larger than the limit or cannot be read, saying why
  ///   in one line; the inspection is then unchanged.
  func importRecording<Chunks: AsyncSequence>(_ chunks: Chunks) async throws(ImportFailure)
  where Chunks.Element == Data {
    let file: URL
    do {
      file = try nextImportFile()
    } catch {
      throw ImportFailure(description: "cannot keep the imported recording: \(error)")
    }
    do {
      try await read(chunks, into: file)
    } catch {
      try? FileManager.default.removeItem(at: file)
      throw ImportFailure(
        description: "\(error)".replacingOccurrences(of: file.path, with: "the imported recording")
      )
    }
  }

  private func read<Chunks: AsyncSequence>(_ chunks: Chunks, into file: URL) async throws
  where Chunks.Element == Data {
    guard FileManager.default.createFile(atPath: file.path, contents: nil),
      let handle = FileHandle(forWritingAtPath: file.path)
    else { throw InspectorError.unreadable(path: file.path, reason: "cannot create it") }
    var size = 0
    do {
      for try await chunk in chunks {
        size += chunk.count
        guard size <= Self.importLimit else {
          throw ImportFailure(
            description: "the imported recording is larger than \(Self.importLimit >> 20) MiB"
          )
        }
        try handle.write(contentsOf: chunk)
      }
      try handle.close()
    } catch {
      try? handle.close()
      throw error
    }
    let opened = try Inspector.open(file.path, follow: false)
    let previous = current.withLock { current in
      defer { current = opened }
      return current
    }
    previous.close()
    Inspector.startWarming(opened)
  }

  /// A new file in the imports' directory, created with it.
  private func nextImportFile() throws -> URL {
    try imports.withLock { imports in
      if imports == nil {
        let directory = FileManager.default.temporaryDirectory
          .appendingPathComponent("cascade-inspect-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        imports = (directory, 0)
      }
      imports?.count += 1
      guard let imports else { throw CocoaError(.fileWriteUnknown) }
      return imports.directory.appendingPathComponent("import-\(imports.count).jsonl")
    }
  }

  /// Removes the imported recordings.
  func removeImports() {
    if let directory = imports.withLock({ $0?.directory }) {
      try? FileManager.default.removeItem(at: directory)
    }
  }
}
