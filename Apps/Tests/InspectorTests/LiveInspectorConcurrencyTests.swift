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

  /// Once `store` is done with its inputs and all `total` steps are published, one more client
  /// of `inspector`, added to `clients`, which asks to replay every step (replay `id`).
  func connectReplayingEveryStep<State: Encodable & Sendable>(
    _ inspector: LiveInspector,
    _ store: Store<State, Int>,
    _ inputs: LiveInputs<Int, State>,
    total: Int,
    id: Int,
    to clients: LockedValue<[(id: Int, messages: AsyncStream<WSMessage>)]>
  ) async {
    await store.finish()
    await inputs.published()
    #expect(inspector.stepCount == total)
    let last = inspector.connect()
    clients.withLock { $0.append(last) }
    await inspector.answer(#"{"replay":{"id":\#(id),"steps":\#(total)}}"#, to: last.id)
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
    let total = 4 * perThread
    await connectReplayingEveryStep(inspector, store, inputs, total: total, id: 99, to: clients)
    replays.withLock { $0.append("\(total)") }
    await inspector.stop()

    let answered = LockedValue(0)
    for client in clients.withLock({ $0 }) {
      var texts: [String] = []
      for await text in LiveTexts(messages: client.messages) { texts.append(text) }
      #expect(texts.first?.hasPrefix(#"{"hello":"#) == true)
      let steps = texts.dropFirst().compactMap { text -> Int? in
        guard
          let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
          let step = object["step"] as? [String: Any]
        else { return nil }
        return step["index"] as? Int
      }
      #expect(steps == Array(0..<total), "a client missed, repeated or reordered steps")
      // A replay's answer says the fresh store reached the state recorded at that step (when
      // the state was captured: `matches` is absent otherwise), and its state is that step's.
      for text in texts where text.hasPrefix(#"{"replayed":"#) {
        answered.withLock { $0 += 1 }
        let object = try liveObject(text)
        let replayed = try #require(object["replayed"] as? [String: Any])
        #expect(replayed["matches"] as? Bool != false, "\(text)")
        let state = try #require(object["state"] as? [String: Any])
        #expect(state["value"] as? Int == replayed["steps"] as? Int)
      }
      // Each step that carries its state carries the right one.
      for text in texts where text.hasPrefix(#"{"diff":"#) {
        let object = try liveObject(text)
        let index = try #require((object["step"] as? [String: Any])?["index"] as? Int)
        if let state = object["state"] as? [String: Any] {
          #expect(state["value"] as? Int == index + 1, "\(text)")
        } else {
          #expect(object["captured"] as? Bool == false, "\(text)")
        }
      }
    }
    #expect(clients.withLock { $0.count } == 16)
    #expect(answered.withLock { $0 } == replays.withLock { $0.count })
  }

  /// A state of megabytes, changed by inputs sent from four threads: the inputs are all
  /// published, in order, the states captured are the states after their steps, each diff goes
  /// from the last state captured, and the last step (the end of the burst) has its state.
  @Test func largeStatesAreCapturedOffTheAppsThreadWithTheLastStepsState() async throws {
    // Larger than an existential's three words: the middleware holds it in a `Holder`.
    struct Tiles: Codable, Sendable, Equatable {
      var tiles = Array(repeating: 0, count: 40_000)
      var count = 0
      var label = "tiles"
    }
    let inspector = LiveInspector(app: "test", architecture: .store, command: "tiles")
    let inputs: LiveInputs<Int, Tiles> = inspector.inputs(of: Tiles.self, kind: .action)
    let store = Store(initialState: Tiles(), middlewares: [inputs]) { state, tile in
      state.tiles[tile % state.tiles.count] += 1
      state.count += 1
    }
    let perThread = 500
    let finished = await runOnThreads(4) { thread in
      for index in 0..<perThread { store.send(thread * perThread + index) }
    }
    #expect(finished)
    await store.finish()
    // The endpoint's wait for its middleware's thread (`inputs.published()`).
    await inspector.caughtUp()
    let total = 4 * perThread
    #expect(inspector.stepCount == total)
    #expect(inspector.capturedCount >= 1)
    let client = inspector.connect()
    await inspector.stop()
    var indices: [Int] = []
    var lastState: [String: Any]?
    var capturedSoFar: Int?
    for await text in LiveTexts(messages: client.messages) {
      guard text.hasPrefix(#"{"diff":"#) else { continue }
      let object = try liveObject(text)
      let index = try #require((object["step"] as? [String: Any])?["index"] as? Int)
      indices.append(index)
      if let state = object["state"] as? [String: Any] {
        // The state after step `index` has counted `index + 1` inputs.
        #expect(state["count"] as? Int == index + 1)
        let from = object["diffFrom"] as? Int ?? index - 1
        #expect(from == (capturedSoFar ?? -1), "the diff goes from the last state captured")
        if index > 0 { #expect(object["diff"] is String) }
        capturedSoFar = index
        lastState = index == total - 1 ? state : nil
      } else {
        #expect(object["captured"] as? Bool == false)
        #expect(object["diff"] is NSNull)
      }
    }
    #expect(indices == Array(0..<total))
    #expect(lastState?["count"] as? Int == total, "the last step of the burst has its state")
  }

  /// Beyond its budget the endpoint lets the oldest states go: their steps stay, marked
  /// `"captured":false`, and a replay to one answers the fresh store's state, with no `matches`.
  @Test func theOldestStatesAreLetGoBeyondTheBudget() async throws {
    struct Padded: Codable, Sendable, Equatable {
      var padding = String(repeating: "x", count: 1_000)
      var value = 0
    }
    let inspector = LiveInspector(
      app: "test",
      architecture: .store,
      command: "padded",
      stateBudget: 4_500
    )
    let inputs: LiveInputs<Int, Padded> = inspector.inputs(of: Padded.self, kind: .action)
    inspector.replays(inputs) {
      Store(initialState: Padded()) { state, action in state.value += action }
    }
    let store = Store(initialState: Padded(), middlewares: [inputs]) { state, action in
      state.value += action
    }
    // One at a time, each published before the next: every state is captured.
    for _ in 0..<10 {
      store.send(1)
      await store.finish()
      await inputs.published()
    }
    #expect(inspector.stepCount == 10)
    #expect(inspector.capturedCount == 10)
    let client = inspector.connect()
    await inspector.answer(#"{"replay":{"id":1,"steps":2}}"#, to: client.id)
    await inspector.stop()
    var kept: [Int] = []
    var replayed: [String: Any]?
    for await text in LiveTexts(messages: client.messages) {
      guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
      else { continue }
      if let replay = object["replayed"] as? [String: Any] {
        #expect(replay["matches"] == nil, "step 1's state was let go: \(text)")
        replayed = object["state"] as? [String: Any]
      } else if let step = object["step"] as? [String: Any], let index = step["index"] as? Int {
        if let state = object["state"] as? [String: Any] {
          #expect(state["value"] as? Int == index + 1)
          kept.append(index)
        } else {
          #expect(object["captured"] as? Bool == false)
        }
      }
    }
    // About 1 kB a state: four fit in 4,500 bytes, the last four.
    #expect(kept == [6, 7, 8, 9])
    #expect(replayed?["value"] as? Int == 2)
  }

  /// An app far ahead of its inspection, from four threads, with clients connecting from three
  /// others and a small limit: steps are skipped while others are published and read, and still
  /// every client gets steps in order, each once, each state the one after its step, and a replay
  /// to the last step (from a state the thread kept) reaches the store's.
  @Test func stepsAreSkippedWhileClientsReadAndReplaysStartFromAStateKept() async throws {
    let inspector = countInspector(stepLimit: 64)
    let (store, inputs) = inspectedCountStore(inspector, restoring: true)
    let perThread = 5_000
    let clients = LockedValue<[(id: Int, messages: AsyncStream<WSMessage>)]>([])
    let finished = await runOnThreads(7) { index in
      if index < 4 {
        for _ in 0..<perThread { store.send(1) }
      } else {
        for _ in 0..<3 {
          let client = inspector.connect()
          clients.withLock { $0.append(client) }
        }
      }
    }
    #expect(finished)
    let total = 4 * perThread
    await connectReplayingEveryStep(inspector, store, inputs, total: total, id: 1, to: clients)
    await inspector.stop()
    for client in clients.withLock({ $0 }) {
      var indices: [Int] = []
      for await text in LiveTexts(messages: client.messages) {
        let object = try liveObject(text)
        if let replayed = object["replayed"] as? [String: Any] {
          #expect(replayed["matches"] as? Bool == true, "\(text)")
          #expect((object["state"] as? [String: Any])?["value"] as? Int == total)
        }
        guard let index = (object["step"] as? [String: Any])?["index"] as? Int else { continue }
        indices.append(index)
        if let state = object["state"] as? [String: Any] {
          #expect(state["value"] as? Int == index + 1, "step \(index)")
        }
      }
      #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 }, "steps out of order")
      #expect(indices.last == total - 1)
    }
  }
}
