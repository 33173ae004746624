import AppSupport
import CascadeStreams
import FlyingFox
import FlyingSocks
public import Foundation
import RPGCore

/// The Cascade Inspector's server: it serves one session recording, its page and its JSON API,
/// on the loopback interface, to whoever holds its token.
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
/// (405 otherwise). It serves its own page and the JSON API, and nothing the page sends can run
/// anything: the recording is only read, and replayed through the app's reducer without effects.
public final class Inspector: Sendable {
  /// The recording's path.
  public let path: String
  /// The secret every request must carry.
  public let token: String
  private let api: any InspectionAPI
  private let running = LockedValue<(server: HTTPServer, task: Task<Void, Never>)?>(nil)

  /// Opens and indexes the recording at `path`; nothing is served yet.
  ///
  /// - Parameters:
  ///   - path: The session recording.
  ///   - token: The secret requests must carry (default: 32 random bytes, in hexadecimal).
  /// - Throws: ``InspectorError`` when the file is missing or unreadable, is not a session
  ///   recording, is damaged, or is of an app the inspector does not read.
  public init(
    recordingAt path: String,
    token: String = Inspector.makeToken()
  )
    throws(InspectorError)
  {
    let index = try RecordingIndex(path: path)
    switch index.header.app {
    case "rpg":
      api = Inspection(
        index: index,
        initial: GameRecordMachine(architecture: index.header.architecture)
      )
    default:
      throw .unknownApp(path: path, app: index.header.app)
    }
    self.path = path
    self.token = token
  }

  /// A new random token: 32 bytes from the system's generator, in hexadecimal.
  public static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in
      let byte = UInt8.random(in: .min ... .max, using: &generator)
      return String(byte, radix: 16).count == 1
        ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }.joined()
  }

  /// Why the server could not start.
  public struct StartError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String
  }

  /// Starts listening on 127.0.0.1 and `port` (0: a free port), and returns the page's URL,
  /// with the port bound and the token: `http://127.0.0.1:PORT/?token=…`.
  ///
  /// - Throws: ``StartError`` when the port is in use or the server does not listen within 30
  ///   seconds.
  public func start(port: UInt16 = 0) async throws(StartError) -> URL {
    let address: sockaddr_in
    do {
      address = try .inet(ip4: "127.0.0.1", port: port)
    } catch {
      throw StartError(description: "cannot listen on 127.0.0.1:\(port): \(error)")
    }
    let handler = InspectorHandler(token: token, api: api)
    let httpServer = HTTPServer(address: address, timeout: 60, logger: .disabled, handler: handler)
    let failure = LockedValue<(any Error)?>(nil)
    let listening = Task { try await httpServer.waitUntilListening(timeout: 30) }
    let task = Task {
      do { try await httpServer.run() } catch { failure.withLock { $0 = error } }
      listening.cancel()
    }
    do {
      try await listening.value
    } catch {
      task.cancel()
      let reason = failure.withLock { $0 }.map { "\($0)" } ?? "not listening after 30 seconds"
      throw StartError(description: "cannot listen on 127.0.0.1:\(port): \(reason)")
    }
    guard case .ip4(_, let boundPort) = await httpServer.listeningAddress else {
      task.cancel()
      throw StartError(description: "cannot read the bound port back")
    }
    handler.port.withLock { $0 = boundPort }
    // A thread of its own: the warming takes seconds on a long recording, and must not hold a
    // thread of the cooperative pool the server answers on.
    let api = api
    api.prepareWarming()
    let warming = Thread { api.warm() }
    warming.qualityOfService = .background
    warming.start()
    running.withLock { $0 = (httpServer, task) }
    // The token is hexadecimal: it needs no escaping in a URL.
    guard let url = URL(string: "http://127.0.0.1:\(boundPort)/?token=\(token)") else {
      throw StartError(description: "cannot make the page's URL")
    }
    return url
  }

  /// Stops listening and ends every connection.
  public func stop() async {
    guard
      let running = running.withLock({ running in
        defer { running = nil }
        return running
      })
    else { return }
    running.task.cancel()
    await running.server.stop(timeout: 0)
    await running.task.value
  }
}
