import AppSupport
import CascadeStore
import Foundation
import RPGCore
import Testing

@testable import InspectorKit
@testable import InspectorLink

/// An endpoint keeps only its last steps.
///
/// Its limit (``LiveInspector/stepLimit``) works as Redux DevTools' `maxAge` keeps its last
/// actions: its memory no longer grows with every step an app ever took, and "replay to here"
/// still reaches any step. `cascade-inspect --live`'s feed finds the steps it gets by their
/// indices, which start where the endpoint's kept ones do.
@Suite struct LiveInspectorWindowTests {
  /// The JSON objects of `texts`.
  static func objects(_ texts: [String]) throws -> [[String: Any]] {
    try texts.map { text in
      try liveObject(text)
    }
  }

  /// The indices of the steps among `objects`.
  static func stepIndices(_ objects: [[String: Any]]) -> [Int] {
    objects.compactMap { ($0["step"] as? [String: Any])?["index"] as? Int }
  }

  @Test func anEndpointKeepsItsLastStepsAndReplaysToAnyStep() async throws {
    let inspector = countInspector(stepLimit: 10)
    let store = inspectedCountStore(inspector).store
    // In bursts shorter than the limit, each published before the next: a burst longer than the
    // limit may run ahead of the inspection, whose oldest steps are then skipped (tested below),
    // depending on how busy the machine is.
    for burst in 0..<13 {
      for _ in 0..<(burst < 12 ? 8 : 4) { store.send(1) }
      await store.finish()
      await inspector.caughtUp()
    }
    #expect(inspector.stepCount == 100)
    #expect(inspector.skippedSteps == 0)
    // The last 10 steps, and at most a sixteenth of the limit (one step) more.
    let first = inspector.firstKeptStep
    #expect((89...90).contains(first))

    let client = inspector.connect()
    await inspector.answer(#"{"replay":{"id":1,"steps":5}}"#, to: client.id)
    await inspector.answer(#"{"replay":{"id":2,"steps":100}}"#, to: client.id)
    await inspector.answer(#"{"replay":{"id":3,"steps":101}}"#, to: client.id)
    await inspector.stop()
    var texts: [String] = []
    for await text in LiveTexts(messages: client.messages) { texts.append(text) }
    let objects = try Self.objects(texts)
    let hello = try #require(objects.first?["hello"] as? [String: Any])
    #expect(hello["first"] as? Int == first)
    #expect(hello["limit"] as? Int == 10)
    #expect(Self.stepIndices(objects) == Array(first..<100))

    let replies = objects.filter { $0["replayed"] != nil }
    try #require(replies.count == 3)
    // Step 4 was let go: replayed from the inputs, with nothing recorded to compare.
    let early = try #require(
      replies.first { ($0["replayed"] as? [String: Any])?["id"] as? Int == 1 }
    )
    #expect((early["state"] as? [String: Any])?["value"] as? Int == 5)
    #expect((early["replayed"] as? [String: Any])?["matches"] == nil)
    // The last step is kept with its state (the end of a burst is always captured).
    let last = try #require(
      replies.first { ($0["replayed"] as? [String: Any])?["id"] as? Int == 2 }
    )
    #expect((last["state"] as? [String: Any])?["value"] as? Int == 100)
    #expect((last["replayed"] as? [String: Any])?["matches"] as? Bool == true)
    let beyond = try #require(
      replies.first { ($0["replayed"] as? [String: Any])?["id"] as? Int == 3 }
    )
    #expect(
      (beyond["replayed"] as? [String: Any])?["error"] as? String == "no step 100 to replay to"
    )
  }

  /// The answer to a replay request `request` on a client of `inspector`.
  static func replay(_ inspector: LiveInspector, _ steps: Int) async throws -> [String: Any] {
    let client = inspector.connect()
    await inspector.answer(#"{"replay":{"id":7,"steps":\#(steps)}}"#, to: client.id)
    var reader = LiveTexts(messages: client.messages).makeAsyncIterator()
    while let text = await reader.next() {
      let object = try liveObject(text)
      if object["replayed"] != nil {
        inspector.disconnect(client.id)
        return object
      }
    }
    Issue.record("no answer to the replay of \(steps) steps")
    return [:]
  }

  @Test func aReplayThatCanStartFromAStateLetsTheOldestInputsGo() async throws {
    let inspector = countInspector(stepLimit: 10)
    let (store, inputs) = inspectedCountStore(inspector, restoring: true)
    // In bursts shorter than the limit (no step is skipped), as an app used for a while: each
    // burst's first states are captured.
    for _ in 0..<125 {
      for _ in 0..<8 { store.send(1) }
      await store.finish()
      await inspector.caughtUp()
    }
    #expect(inspector.stepCount == 1_000)
    #expect(inspector.skippedSteps == 0)
    // The inputs kept: at least the limit's, and not many more (a state every quarter of it).
    let first = inputs.firstReplayableStep
    #expect(first >= 1_000 - 40 && first <= 1_000 - 10, "first replayable step \(first)")

    // From the state kept, in a store `restoring` made: the same state as the app's.
    let last = try await Self.replay(inspector, 1_000)
    #expect((last["state"] as? [String: Any])?["value"] as? Int == 1_000)
    #expect((last["replayed"] as? [String: Any])?["matches"] as? Bool == true)
    let earliest = try await Self.replay(inspector, first + 1)
    #expect((earliest["state"] as? [String: Any])?["value"] as? Int == first + 1)
    // Before it, the inputs are gone: an error says where replays start.
    let gone = try await Self.replay(inspector, first)
    #expect(
      (gone["replayed"] as? [String: Any])?["error"] as? String
        == "the inputs before step \(first) were let go: a replay reaches step \(first) and after"
    )
    await inspector.stop()
  }

  /// The game's sessions replay from a state they kept, on every architecture (a feedback
  /// loop's without its feedbacks, which would react to a state taken mid-way): the replay to
  /// the last step reaches the state the game recorded, and the inputs of the first steps are
  /// let go.
  @Test(arguments: Architecture.allCases)
  func anInspectedGameReplaysFromAStateItKept(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let inspector = LiveInspector(
      app: "rpg",
      architecture: architecture,
      command: "test",
      stepLimit: 16
    )
    let game = inspectedGame(architecture, inspector, in: directory)
    game.send(.newGame(name: "Window", seed: 11))
    await game.finish()
    let cycle: [GameIntent] = [.explore, .attack, .attack, .rest, .drinkPotion, .explore, .flee]
    for round in 0..<40 {
      for index in 0..<5 { game.send(cycle[(round * 5 + index) % cycle.count]) }
      await game.finish()
      await inspector.caughtUp()
    }
    let steps = inspector.stepCount
    #expect(steps > 200)
    let last = try await Self.replay(inspector, steps)
    #expect((last["replayed"] as? [String: Any])?["matches"] as? Bool == true, "\(last)")
    let first = try await Self.replay(inspector, 1)
    let error = (first["replayed"] as? [String: Any])?["error"] as? String
    #expect(error?.hasPrefix("the inputs before step ") == true, "\(first)")
    await inspector.stop()
  }

  /// An app that runs further ahead of its inspection than the limit: the steps it is ahead
  /// by are skipped, not published, so that the inputs waiting are bounded; every step
  /// published carries the state after it, a replay to the last reaches the app's state, from
  /// the state read at the skip.
  @Test func anAppFurtherAheadThanTheLimitHasTheStepsBetweenSkipped() async throws {
    let inspector = countInspector(stepLimit: 100)
    let (store, inputs) = inspectedCountStore(inspector, restoring: true)
    let client = inspector.connect()
    // Bursts far longer than the limit: the inspection, which takes a tenth of a core, cannot
    // follow one; on a machine where it did, the next burst is tried.
    var sent = 0
    for _ in 0..<20 where inspector.skippedSteps == 0 {
      for _ in 0..<20_000 { store.send(1) }
      sent += 20_000
      await store.finish()
      await inspector.caughtUp()
    }
    #expect(inspector.skippedSteps > 0, "the inspection kept up with every burst")
    #expect(inspector.stepCount == sent)
    // The inputs kept: those of the steps after the last skip's start (at least half the
    // limit's), not every one.
    let first = inputs.firstReplayableStep
    #expect(first > sent / 2, "inputs kept from step \(first) of \(sent)")
    let last = try await Self.replay(inspector, sent)
    #expect((last["state"] as? [String: Any])?["value"] as? Int == sent)
    #expect((last["replayed"] as? [String: Any])?["matches"] as? Bool == true)
    await inspector.stop()
    var published: [Int] = []
    for await text in LiveTexts(messages: client.messages) {
      let object = try liveObject(text)
      guard let index = (object["step"] as? [String: Any])?["index"] as? Int else { continue }
      published.append(index)
      // A step's state, when it carries one, is the state after it.
      if let state = object["state"] as? [String: Any] {
        #expect(state["value"] as? Int == index + 1, "step \(index)")
      }
    }
    #expect(published == published.sorted() && Set(published).count == published.count)
    #expect(published.last == sent - 1)
    #expect(published.count + inspector.skippedSteps <= sent)
  }

  @Test func aClientThatFallsBehindSkipsTheStepsLetGo() async throws {
    let inspector = countInspector(stepLimit: 16)
    let store = inspectedCountStore(inspector).store
    let client = inspector.connect()
    var reader = LiveTexts(messages: client.messages).makeAsyncIterator()
    let hello = try Self.objects([try #require(await reader.next())])
    #expect((hello.first?["hello"] as? [String: Any])?["first"] as? Int == 0)
    for _ in 0..<5 { store.send(1) }
    await store.finish()
    await inspector.caughtUp()
    var early: [Int] = []
    while early.count < 5, let text = await reader.next() {
      early += Self.stepIndices(try Self.objects([text]))
    }
    #expect(early == Array(0..<5))
    // While the client reads nothing, the app goes on far beyond the limit (in bursts shorter
    // than it, each published before the next: none is skipped by the endpoint, whatever the
    // machine's load).
    for _ in 0..<25 {
      for _ in 0..<8 { store.send(1) }
      await store.finish()
      await inspector.caughtUp()
    }
    #expect(inspector.skippedSteps == 0)
    let first = inspector.firstKeptStep
    #expect(first > 5)
    await inspector.stop()
    var late: [Int] = []
    while let text = await reader.next() { late += Self.stepIndices(try Self.objects([text])) }
    // From the first step kept, each once, in order: the steps let go meanwhile are skipped.
    #expect(late == Array(first..<205))
  }

  @Test func aFeedFindsStepsByIndexAndLetsTheOldestGo() {
    let feed = StepFeed(stateBudget: 1 << 20, stepLimit: 32)
    func step(_ index: Int, kind: String = "action") -> StepMessage.Step {
      StepMessage.Step(
        index: index,
        sequence: index + 1,
        kind: kind,
        description: "add(\(index))",
        source: "user"
      )
    }
    func detail(_ index: Int) -> Data {
      StepMessage(step: step(index), diff: nil).encoded(
        withState: Data("{\"value\":\(index)}".utf8)
      )
    }
    func stateless(_ index: Int) -> Data {
      Data(#"{"captured":false,"state":null,"index":\#(index)}"#.utf8)
    }
    // A client that connected late: the first step it gets is 1,000; then a jump, as for a client
    // that fell behind.
    for index in 1_000..<1_010 {
      feed.append(step(index), detail: detail(index), stateless: stateless(index))
    }
    for index in 5_000..<5_100 {
      feed.append(step(index), detail: detail(index), stateless: stateless(index))
    }
    #expect(feed.count == 110)
    #expect(feed.step(999) == nil)
    // An index from a request may be any integer.
    #expect(feed.step(.min) == nil)
    #expect(feed.step(.max) == nil)
    // The oldest let go: at most the limit and a sixteenth of it kept.
    #expect(feed.step(1_000) == nil)
    #expect(feed.step(5_099) == detail(5_099))
    #expect(feed.step(5_100 - 32) == detail(5_100 - 32))
    #expect(feed.step(5_100 - 35) == nil)
    // A step again, or out of order, is not added.
    feed.append(step(5_090), detail: detail(1), stateless: stateless(1))
    #expect(feed.count == 110)
    #expect(feed.step(5_090) == detail(5_090))
    // The summary counts every step that came, and says how many are kept.
    let summary =
      try? JSONSerialization.jsonObject(with: feed.summary(source: "test")) as? [String: Any]
    #expect(summary?["steps"] as? Int == 110)
    let kept = summary?["kept"] as? Int
    #expect(kept.map { (32...34).contains($0) } == true)
    #expect((summary?["kinds"] as? [String: Int])?["action"] == kept)
    // The timeline's pages are the steps kept, by position, with their indices.
    let page =
      try? JSONSerialization.jsonObject(
        with: feed.steps(from: 0, count: 1_000, kind: nil, search: "")
      ) as? [String: Any]
    let indices = (page?["steps"] as? [[String: Any]])?.compactMap { $0["index"] as? Int }
    #expect(indices == kept.map { Array((5_100 - $0)..<5_100) })
    // Told to keep fewer (an endpoint's hello says how many it keeps), it lets more go.
    feed.keep(last: 8)
    for index in 5_100..<5_110 {
      feed.append(step(index), detail: detail(index), stateless: stateless(index))
    }
    #expect(feed.step(5_109) == detail(5_109))
    #expect(feed.step(5_100) == nil)
  }
}
