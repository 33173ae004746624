import AppSupport
import AppTestSupport
import Foundation
import InspectorKit
import InspectorLink
import RPGCore
import Testing

/// Skip and commit, as Redux DevTools users know them (issue 36): a skipped input's states after
/// it are recomputed without it, and brought back; a commit makes a step's state the start.
@Suite struct InspectorEditTests {
  /// The inspector of an RPG recording, seen through its JSON answers.
  struct Seen {
    let inspector: Inspector

    func state(_ index: Int) throws -> NSDictionary {
      let message = try JSONSerialization.jsonObject(with: try #require(try inspector.step(index)))
      return try #require((message as? [String: Any])?["state"] as? NSDictionary)
    }

    func detail(_ index: Int) throws -> [String: Any] {
      let message = try JSONSerialization.jsonObject(with: try #require(try inspector.step(index)))
      return try #require(message as? [String: Any])
    }

    func steps(kind: StepKind? = nil) throws -> (total: Int, steps: [[String: Any]]) {
      let page = try JSONSerialization.jsonObject(
        with: inspector.steps(from: 0, count: 1_000, kind: kind)
      )
      let object = try #require(page as? [String: Any])
      return (
        try #require(object["total"] as? Int), try #require(object["steps"] as? [[String: Any]])
      )
    }
  }

  @Test(
    .enabled(if: InspectorExecutableTests.rpg != nil, "build rpg first"),
    arguments: Architecture.allCases
  )
  func aSkippedInputIsLeftOutOfTheStatesAfterItAndACommitStartsTheTimeline(
    _ architecture: Architecture
  ) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recording = try await InspectorExecutableTests.record(architecture, in: directory)
    let kinds = try InspectorExecutableTests.kinds(of: recording, architecture: architecture)
    let seen = Seen(inspector: try Inspector(recordingAt: recording.path))
    let original = try kinds.indices.map(seen.state)
    let intents = kinds.indices.filter { kinds[$0] == "intent" }
    // The first step that changes the state after the first attack, and the last step before
    // the save (the load after it restores the saved game whatever came before).
    let attack = intents[2]
    let skipped = try #require(
      (attack + 1..<kinds.count).first { original[$0] != original[$0 - 1] }
    )
    let beforeSave = intents[4] - 1

    let answer = try #require(seen.inspector.toggleSkip(skipped))
    let edits = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
    #expect(edits["skipped"] as? [Int] == [skipped])
    #expect(try seen.state(skipped) == original[skipped - 1], "a skipped step changes nothing")
    #expect(try seen.detail(skipped)["diff"] is NSNull)
    #expect(try seen.state(skipped - 1) == original[skipped - 1], "the states before it stay")
    #expect(try seen.state(beforeSave) != original[beforeSave], "the states after it change")
    let marked = try seen.steps().steps.filter { $0["skipped"] as? Bool == true }
    #expect(marked.map { $0["index"] as? Int } == [skipped])

    // Brought back: every state as recorded again.
    _ = try #require(seen.inspector.toggleSkip(skipped))
    #expect(try kinds.indices.map(seen.state) == original)
    #expect(try seen.steps().steps.allSatisfy { $0["skipped"] == nil })

    // Commit at the first attack: the timeline starts after it, with the same states.
    _ = try #require(seen.inspector.commit(at: attack))
    let after = try seen.steps()
    #expect(after.total == kinds.count - attack - 1)
    #expect(after.steps.map { $0["index"] as? Int } == Array(attack + 1..<kinds.count))
    #expect(
      try seen.steps(kind: .intent).steps.map { $0["index"] as? Int }
        == intents.filter { $0 > attack }
    )
    #expect(try seen.state(attack + 1) == original[attack + 1])
    // A step before the start can be neither skipped nor committed; one beyond the end neither.
    #expect(seen.inspector.toggleSkip(attack) == nil)
    #expect(seen.inspector.commit(at: 0) == nil)
    #expect(seen.inspector.toggleSkip(kinds.count) == nil)
  }

  /// The export is the timeline as shown — after a commit, without a skipped step — as a
  /// recording with states, which the inspector opens again with the same states (issue 36).
  @Test(
    .enabled(if: InspectorExecutableTests.rpg != nil, "build rpg first"),
    arguments: Architecture.allCases
  )
  func anExportOpensAgainWithTheStatesShown(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recording = try await InspectorExecutableTests.record(architecture, in: directory)
    let kinds = try InspectorExecutableTests.kinds(of: recording, architecture: architecture)
    let seen = Seen(inspector: try Inspector(recordingAt: recording.path))
    let intents = kinds.indices.filter { kinds[$0] == "intent" }
    let start = intents[1]
    _ = try #require(seen.inspector.commit(at: start))
    let skipped = try #require((start + 2..<kinds.count).first { kinds[$0] != "intent" })
    _ = try #require(seen.inspector.toggleSkip(skipped))
    let shown = try (start + 1..<kinds.count).filter { $0 != skipped }.map(seen.state)

    let file = directory.file("export.jsonl")
    try seen.inspector.export().write(to: file)
    let reopened = Seen(inspector: try Inspector(recordingAt: file.path))
    let steps = try reopened.steps().steps
    #expect(steps.count == shown.count)
    #expect(try steps.indices.map(reopened.state) == shown)
    // Named as they were: the names of the steps shown, in order.
    let names = try seen.steps().steps.filter { $0["index"] as? Int != skipped }
      .map { $0["description"] as? String }
    #expect(steps.map { $0["description"] as? String } == names)
  }

  /// An import replaces what the inspector shows with the recording sent (here a reactor's
  /// export, then a store's session recording), and needs the token in its header; a file that is
  /// not a recording is refused in one line, and what was shown stays.
  @Test(
    .enabled(
      if: InspectorExecutableTests.rpg != nil && InspectorExecutableTests.inspector != nil,
      "build rpg and cascade-inspect first"
    )
  )
  func anImportedRecordingIsInspectedFromThenOn() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try await InspectorExecutableTests.record(.store, in: directory)
    let reactor = try await InspectorExecutableTests.record(.reactor, in: directory)
    let exported = try Inspector(recordingAt: reactor.path).export()
    let reactorSteps = try InspectorExecutableTests.kinds(of: reactor, architecture: .reactor).count
    let served = try await InspectorExecutableTests.serve(store)
    defer { Task { await served.child.stop() } }
    func post(_ body: Data, token: Bool = true) throws -> HTTPAnswer {
      try loopbackRequest(
        port: served.port,
        path: "/api/import",
        method: "POST",
        headers: token ? ["X-Cascade-Token": served.token] : [:],
        body: body
      )
    }

    #expect(try post(exported, token: false).status == 403)
    #expect(try served.get("/api/summary").json()["architecture"] as? String == "store")

    let imported = try post(exported)
    #expect(imported.status == 200, "\(imported.text)")
    #expect(try imported.json()["steps"] as? Int == reactorSteps)
    let page = try served.get("/api/steps?from=0&count=1000").json()
    #expect(page["total"] as? Int == reactorSteps)
    // The export's last state is the recording's.
    let last = try InspectorExecutableTests.state(in: served.get("/api/step/\(reactorSteps - 1)"))
    let original = Seen(inspector: try Inspector(recordingAt: reactor.path))
    let recorded = try JSONDecoder().decode(
      GameState.self,
      from: JSONSerialization.data(withJSONObject: try original.state(reactorSteps - 1))
    )
    #expect(last == recorded)

    let refused = try post(Data("not a recording\n".utf8))
    #expect(refused.status == 422)
    #expect(refused.text.split(separator: "\n").count == 1, "\(refused.text)")
    #expect(refused.text.contains("the imported recording"), "\(refused.text)")
    #expect(!refused.text.contains(FileManager.default.temporaryDirectory.path))
    #expect(try served.get("/api/summary").json()["steps"] as? Int == reactorSteps)

    // An app's session recording, whose states the inspector computes again.
    let again = try post(try Data(contentsOf: store))
    #expect(again.status == 200, "\(again.text)")
    #expect(try again.json()["architecture"] as? String == "store")
    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
  }

  /// Skip and commit are `POST`s that need the token in their header, as a replay does; a live
  /// app's steps cannot be skipped.
  @Test(
    .enabled(
      if: InspectorExecutableTests.rpg != nil && InspectorExecutableTests.inspector != nil,
      "build rpg and cascade-inspect first"
    )
  )
  func skipAndCommitNeedTheTokenInTheirHeader() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recording = try await InspectorExecutableTests.record(.store, in: directory)
    let served = try await InspectorExecutableTests.serve(recording)
    defer { Task { await served.child.stop() } }
    for action in ["skip", "commit"] {
      let refused = try loopbackRequest(
        port: served.port,
        path: "/api/\(action)/5?token=\(served.token)",
        method: "POST"
      )
      #expect(refused.status == 403, "\(action) without the header")
    }
    let skipped = try loopbackRequest(
      port: served.port,
      path: "/api/skip/5",
      method: "POST",
      headers: ["X-Cascade-Token": served.token]
    )
    #expect(skipped.status == 200)
    #expect(try skipped.json()["skipped"] as? [Int] == [5])
    let page = try served.get("/api/steps?from=5&count=1").json()
    #expect((page["steps"] as? [[String: Any]])?.first?["skipped"] as? Bool == true)
    let summary = try served.get("/api/summary").json()
    #expect(summary["editable"] as? Bool == true)
    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
  }
}
