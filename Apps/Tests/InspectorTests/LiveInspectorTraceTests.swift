import AppSupport
import CascadeMiddleware
import CascadeStore
import FlyingFox
import Foundation
import Testing

@testable import InspectorLink

/// The live endpoint times the app only while a client connected asks (or the app itself): with
/// none, the engine reads no clock for it (the cost `cascade-inspector-bench live-rpg` measures
/// apart).
@Suite struct LiveInspectorTraceTests {
  struct Count: Codable, Sendable, Equatable {
    var value = 0
  }

  typealias Client = (id: Int, messages: AsyncStream<WSMessage>)

  /// The first answer `client` receives that begins with `prefix`, as JSON.
  static func answer(
    _ prefix: String,
    to client: Client
  ) async throws -> [String: Any] {
    for await text in LiveTexts(messages: client.messages) {
      guard text.hasPrefix(prefix) else { continue }
      return try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
        "\(text)"
      )
    }
    Issue.record("no answer beginning with \(prefix)")
    return [:]
  }

  /// Asks for timing (`on`) or no longer, as `client`, and returns whether the app is timed.
  static func ask(
    _ on: Bool,
    _ inspector: LiveInspector,
    as client: Client
  ) async throws -> Bool? {
    await inspector.answer(#"{"timing":{"id":7,"on":\#(on)}}"#, to: client.id)
    let timed = try await answer(#"{"timed":"#, to: client)["timed"] as? [String: Any]
    #expect(timed?["id"] as? Int == 7)
    return timed?["on"] as? Bool
  }

  /// The sequences of the inputs in the trace `client` asks for.
  static func tracedSequences(_ inspector: LiveInspector, client: Client) async throws -> [Int] {
    await inspector.answer(#"{"trace":{"id":1,"last":1000}}"#, to: client.id)
    let trace = try #require(
      try await answer(#"{"traced":"#, to: client)["trace"] as? [String: Any]
    )
    let events = try #require(trace["traceEvents"] as? [[String: Any]])
    return events.compactMap { event in
      event["cat"] as? String == "input"
        ? (event["args"] as? [String: Any])?["sequence"] as? Int : nil
    }
  }

  @Test func theAppIsTimedWhileAClientAsksAndOnlyThen() async throws {
    let inspector = LiveInspector(app: "test", architecture: .store, command: "count")
    let inputs: LiveInputs<Int, Count> = inspector.inputs(of: Count.self, kind: .action)
    let store = Store(initialState: Count(), middlewares: [inputs]) { state, action in
      state.value += action
    }
    store.send(1)
    // A client that only looks costs the app no timing.
    let first = inspector.connect()
    #expect(!inputs.timings.isTracing)
    store.send(1)
    #expect(try await Self.ask(true, inspector, as: first) == true)
    #expect(inputs.timings.isTracing)
    store.send(1)
    let second = inspector.connect()
    #expect(try await Self.ask(true, inspector, as: second) == true)
    store.send(1)
    #expect(try await Self.ask(false, inspector, as: first) == true, "the second still asks")
    store.send(1)
    await store.finish()
    await inputs.published()
    #expect(try await Self.tracedSequences(inspector, client: first) == [3, 4, 5])

    // The last client asking leaves without a word: its ask ends with it.
    inspector.disconnect(second.id)
    #expect(!inputs.timings.isTracing)
    #expect(!inspector.isTimed)
    store.send(1)
    await store.finish()
    await inputs.published()
    #expect(try await Self.tracedSequences(inspector, client: first) == [3, 4, 5])

    // The app's own ask lasts until it withdraws it, whoever comes and goes.
    inspector.startTracing()
    #expect(inputs.timings.isTracing)
    #expect(try await Self.ask(false, inspector, as: first) == true)
    store.send(1)
    inspector.stopTracing()
    #expect(!inputs.timings.isTracing)
    store.send(1)
    await store.finish()
    await inputs.published()
    #expect(try await Self.tracedSequences(inspector, client: first) == [3, 4, 5, 7])
    await inspector.stop()
  }

  /// A client that left cannot ask: an ask that arrives after it is answered "not timed".
  @Test func aClientThatLeftCannotAsk() async throws {
    let inspector = LiveInspector(app: "test", architecture: .store, command: "count")
    let inputs: LiveInputs<Int, Count> = inspector.inputs(of: Count.self, kind: .action)
    let store = Store(initialState: Count(), middlewares: [inputs]) { state, action in
      state.value += action
    }
    let client = inspector.connect()
    inspector.disconnect(client.id)
    await inspector.answer(#"{"timing":{"id":1,"on":true}}"#, to: client.id)
    #expect(!inputs.timings.isTracing)
    #expect(!inspector.isTimed)
    store.send(1)
    await store.finish()
    await inspector.stop()
  }
}
