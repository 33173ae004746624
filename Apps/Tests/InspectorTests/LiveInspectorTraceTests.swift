import AppSupport
import CascadeMiddleware
import CascadeStore
import FlyingFox
import Foundation
import Testing

@testable import InspectorLink

/// The live endpoint times the app only while a client is connected: with none, the engine
/// reads no clock for it (the cost `cascade-inspector-bench live-rpg` measures apart).
@Suite struct LiveInspectorTraceTests {
  struct Count: Codable, Sendable, Equatable {
    var value = 0
  }

  /// The sequences of the inputs in the trace `client` asks for.
  static func tracedSequences(
    _ inspector: LiveInspector,
    client: (id: Int, messages: AsyncStream<WSMessage>)
  ) async throws -> [Int] {
    await inspector.answer(#"{"trace":{"id":1,"last":1000}}"#, to: client.id)
    for await message in client.messages {
      guard case .text(let text) = message, text.hasPrefix(#"{"traced":"#) else { continue }
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
      let trace = try #require(object?["trace"] as? [String: Any], "\(text)")
      let events = try #require(trace["traceEvents"] as? [[String: Any]])
      return events.compactMap { event in
        event["cat"] as? String == "input"
          ? (event["args"] as? [String: Any])?["sequence"] as? Int : nil
      }
    }
    Issue.record("the trace was never answered")
    return []
  }

  @Test func theAppIsTimedWhileAClientIsConnectedAndOnlyThen() async throws {
    let inspector = LiveInspector(app: "test", architecture: .store, command: "count")
    let inputs: LiveInputs<Int, Count> = inspector.inputs(of: Count.self, kind: .action)
    let store = Store(initialState: Count(), middlewares: [inputs]) { state, action in
      state.value += action
    }
    #expect(!inputs.timings.isTracing)
    store.send(1)
    store.send(1)

    let first = inspector.connect()
    #expect(inputs.timings.isTracing)
    store.send(1)
    let second = inspector.connect()
    store.send(1)
    inspector.disconnect(first.id)
    #expect(inputs.timings.isTracing, "one client is still connected")
    store.send(1)
    await store.finish()
    await inputs.published()
    #expect(try await Self.tracedSequences(inspector, client: second) == [3, 4, 5])

    inspector.disconnect(second.id)
    #expect(!inputs.timings.isTracing)
    store.send(1)
    await store.finish()
    await inputs.published()
    let third = inspector.connect()
    #expect(try await Self.tracedSequences(inspector, client: third) == [3, 4, 5])
    await inspector.stop()
  }
}
