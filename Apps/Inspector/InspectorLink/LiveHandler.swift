import CascadeStreams
import FlyingFox
import Foundation

/// Answers the live endpoint's requests: refuses those not addressed to the loopback host and
/// port (421), not `GET /live` (404, 405), or without the token (403); upgrades the rest to the
/// endpoint's WebSocket.
final class LiveHandler: HTTPHandler, Sendable {
  let inspector: LiveInspector
  /// The port bound, once listening: the `Host` header must name it.
  let port = LockedValue<UInt16>(0)

  init(inspector: LiveInspector) {
    self.inspector = inspector
  }

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    let port = port.withLock { $0 }
    guard LoopbackServer.isAddressedToLoopback(request, port: port) else {
      return Self.text(.misdirectedRequest, "this endpoint answers only 127.0.0.1:\(port)")
    }
    guard request.path == "/live" else { return Self.text(.notFound, "not found") }
    guard request.method == .GET else {
      return Self.text(.methodNotAllowed, "the endpoint only answers GET")
    }
    guard LoopbackServer.same(request.query["token"] ?? "", inspector.token) else {
      return Self.text(.forbidden, "connect with the URL the app printed, with its token")
    }
    let socket = WebSocketHTTPHandler(
      handler: MessageFrameWSHandler(handler: LiveSocket(inspector: inspector))
    )
    return try await socket.handleRequest(request)
  }

  private static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
    HTTPResponse(
      statusCode: status,
      headers: [.contentType: "text/plain; charset=utf-8"],
      body: Data((text + "\n").utf8)
    )
  }
}

/// One client's WebSocket: the endpoint's messages out, replay requests in.
private struct LiveSocket: WSMessageHandler {
  let inspector: LiveInspector

  func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
    let (id, messages) = inspector.connect()
    let inspector = inspector
    Task {
      for await message in client {
        guard case .text(let text) = message else { continue }
        await inspector.answer(text, to: id)
      }
      inspector.disconnect(id)
    }
    return messages
  }
}
