import FlyingFox
import Foundation
import InspectorLink
import Testing

/// The JSON texts of a live endpoint's messages, in order: `InspectorLink.LiveInspector` sends
/// steps several to a message, one per line.
struct LiveTexts: AsyncSequence {
  typealias Element = String

  let messages: AsyncStream<WSMessage>

  struct AsyncIterator: AsyncIteratorProtocol {
    var messages: AsyncStream<WSMessage>.Iterator
    /// The lines of the last message not yet returned, last first.
    var pending: [String] = []

    mutating func next() async -> String? {
      await next(isolation: nil)
    }

    mutating func next(isolation actor: isolated (any Actor)?) async -> String? {
      while pending.isEmpty {
        guard let message = await messages.next(isolation: actor) else { return nil }
        guard case .text(let text) = message else { continue }
        pending = LiveInspector.texts(of: text).map(String.init).reversed()
      }
      return pending.removeLast()
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(messages: messages.makeAsyncIterator())
  }
}

/// One of a live endpoint's JSON texts, as an object (the test fails if it is not one).
func liveObject(_ text: String) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}
