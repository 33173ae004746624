import CascadeStreams
public import FlyingFox
import FlyingSocks
import Foundation

/// An HTTP server on 127.0.0.1, as the inspector and the apps' live endpoints run one: started on
/// a port (0: a free one), with the port bound read back, and stopped with every connection.
public final class LoopbackServer: Sendable {
  /// The port bound.
  public let port: UInt16
  private let server: HTTPServer
  private let task: Task<Void, Never>

  private init(port: UInt16, server: HTTPServer, task: Task<Void, Never>) {
    self.port = port
    self.server = server
    self.task = task
  }

  /// Why the server could not start.
  public struct StartError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates the error.
    public init(description: String) {
      self.description = description
    }
  }

  /// Starts listening on 127.0.0.1 and `port` (0: a free port) with `handler`.
  ///
  /// It returns once the socket listens, however long a busy machine takes to get there: the
  /// wait ends when the server listens or fails to, never on a clock.
  ///
  /// - Throws: ``StartError`` when the port is in use or the server cannot listen.
  public static func start(
    port: UInt16,
    handler: some HTTPHandler
  ) async throws(StartError) -> LoopbackServer {
    let address: sockaddr_in
    do {
      address = try .inet(ip4: "127.0.0.1", port: port)
    } catch {
      throw StartError(description: "cannot listen on 127.0.0.1:\(port): \(error)")
    }
    let server = HTTPServer(address: address, timeout: 60, logger: .disabled, handler: handler)
    let failure = LockedValue<(any Error)?>(nil)
    // FlyingFox's wait needs a timeout: ~31 years, so that only listening or failing ends it.
    let listening = Task { try await server.waitUntilListening(timeout: 1e9) }
    let task = Task {
      do { try await server.run() } catch { failure.withLock { $0 = error } }
      listening.cancel()
    }
    do {
      try await listening.value
    } catch {
      task.cancel()
      let reason = failure.withLock { $0 }.map { "\($0)" } ?? "the server stopped before listening"
      throw StartError(description: "cannot listen on 127.0.0.1:\(port): \(reason)")
    }
    guard case .ip4(_, let boundPort) = await server.listeningAddress else {
      task.cancel()
      throw StartError(description: "cannot read the bound port back")
    }
    return LoopbackServer(port: boundPort, server: server, task: task)
  }

  /// Stops listening and ends every connection.
  public func stop() async {
    task.cancel()
    await server.stop(timeout: 0)
    await task.value
  }

  /// A new random token: 32 bytes from the system's generator, in hexadecimal.
  public static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in
      let byte = UInt8.random(in: .min ... .max, using: &generator)
      return byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }.joined()
  }

  /// Compares two strings in a time that depends only on their lengths.
  public static func same(_ given: String, _ expected: String) -> Bool {
    let given = Array(given.utf8)
    let expected = Array(expected.utf8)
    guard given.count == expected.count else { return false }
    return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }

  /// Whether `request`'s `Host` header is `127.0.0.1:PORT` or `localhost:PORT`, the name in any
  /// case (host names are case-insensitive: `LocalHost:PORT` is the same host).
  ///
  /// A page on another site that rebinds its name to 127.0.0.1 sends its own name, and is
  /// refused.
  public static func isAddressedToLoopback(_ request: HTTPRequest, port: UInt16) -> Bool {
    guard let host = request.headers[.host]?.lowercased() else { return false }
    return host == "127.0.0.1:\(port)" || host == "localhost:\(port)"
  }
}
