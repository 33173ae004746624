import AppSupport
import AppTestSupport
import CascadeStore
import CascadeStreams
import FlyingFox
import Foundation
import Testing

@testable import InspectorLink

/// The live endpoint under real threads (run under ThreadSanitizer in CI).
///
/// A store processes
/// inputs sent from four threads while clients connect from three others, at any point. Every
/// client gets the hello, then every step exactly once, in order, from the first; a replay
/// asked for while steps are published answers with the state the store had at that step.
@Suite struct LiveInspectorConcurrencyTests {
  struct Count: Codable, Sendable, Equatable {
    var value = 0
  }

  @Test func clientsConnectingWhileStepsArePublishedGetEveryStepOnceInOrder() async throws {
    let inspector = LiveInspector(app: "test", architecture: .store, command: "count")
    let inputs = inspector.inputs(
      of: Count.self,
      kind: .action,
      isEffectOutcome: { (action: Int, _: (any Sendable)?) in action < 0 }
    )
    let store = Store(initialState: Count(), middlewares: [inputs]) { state, action in
      state.value += action
    }
    inspector.replays(inputs) {
      Store(initialState: Count()) { state, action in state.value += action }
    }
    let perThread = 250
    let clients = LockedValue<[(id: Int, messages: AsyncStream<WSMessage>)]>([])
    let replays = LockedValue<[String]>([])
    let finished = await runOnThreads(7) { index in
      if index < 4 {
        for _ in 0..<perThread { store.send(1) }
      } else {
        for round in 0..<5 {
          let client = inspector.connect()
          clients.withLock { $0.append(client) }
          let steps = inspector.stepCount
          if round == 2, steps > 0 {
            let semaphore = DispatchSemaphore(value: 0)
            Task {
              await inspector.answer(
                #"{"replay":{"id":\#(index),"steps":\#(steps)}}"#,
                to: client.id
              )
              semaphore.signal()
            }
            semaphore.wait()
            replays.withLock { $0.append("\(steps)") }
          }
        }
      }
    }
    #expect(finished)
    await store.finish()
    let total = 4 * perThread
    #expect(inspector.stepCount == total)
    // One more client, which replays every step once all are published.
    let last = inspector.connect()
    clients.withLock { $0.append(last) }
    await inspector.answer(#"{"replay":{"id":99,"steps":\#(total)}}"#, to: last.id)
    replays.withLock { $0.append("\(total)") }
    await inspector.stop()

    let answered = LockedValue(0)
    for client in clients.withLock({ $0 }) {
      var texts: [String] = []
      for await message in client.messages {
        if case .text(let text) = message { texts.append(text) }
      }
      #expect(texts.first?.hasPrefix(#"{"hello":"#) == true)
      let steps = texts.dropFirst().compactMap { text -> Int? in
        guard
          let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
          let step = object["step"] as? [String: Any]
        else { return nil }
        return step["index"] as? Int
      }
      #expect(steps == Array(0..<total), "a client missed, repeated or reordered steps")
      // A replay's answer says the fresh store reached the state recorded at that step.
      for text in texts where text.hasPrefix(#"{"replayed":"#) {
        answered.withLock { $0 += 1 }
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        )
        let replayed = try #require(object["replayed"] as? [String: Any])
        #expect(replayed["matches"] as? Bool == true, "\(text)")
        let state = try #require(object["state"] as? [String: Any])
        #expect(state["value"] as? Int == replayed["steps"] as? Int)
      }
    }
    #expect(clients.withLock { $0.count } == 16)
    #expect(answered.withLock { $0 } == replays.withLock { $0.count })
  }
}
