import AppSupport
import AppTestSupport
import Foundation
import RPGCore
import Testing

/// The pieces of the generator of tests from recordings: the merge patches that assert each
/// step's change, the recorded effects that answer the stubs, and `cascade-inspect FILE
/// --export-test OUT.swift` as a user runs it.
@Suite struct RecordingTestGeneratorTests {
  struct Sample: Codable, Equatable {
    struct Inner: Codable, Equatable {
      var name: String
      var note: String?
    }
    var count: Int
    var ratio: Double
    var seed: UInt64
    var items: [Int]
    var inner: Inner?
    var label: String?
  }

  static let before = Sample(
    count: 1,
    ratio: 0.1,
    seed: .max,
    items: [1, 2],
    inner: .init(name: "a", note: "n"),
    label: "x"
  )

  /// A patch holds only what changed; applied to the state before, it gives the state after,
  /// whatever changed: a number, a nested member, an optional set or cleared, an array.
  @Test(
    arguments: [
      (
        Sample(
          count: 2,
          ratio: 0.1,
          seed: .max,
          items: [1, 2],
          inner: .init(name: "a", note: "n"),
          label: "x"
        ), #"{"count":2}"#
      ),
      (
        Sample(
          count: 1,
          ratio: 0.30000000000000004,
          seed: .max,
          items: [1, 2],
          inner: .init(name: "a", note: "n"),
          label: "x"
        ), #"{"ratio":0.30000000000000004}"#
      ),
      (
        Sample(
          count: 1,
          ratio: 0.1,
          seed: .max,
          items: [1, 2],
          inner: .init(name: "b", note: nil),
          label: "x"
        ), #"{"inner":{"name":"b","note":null}}"#
      ),
      (
        Sample(count: 1, ratio: 0.1, seed: .max, items: [1, 2], inner: nil, label: nil),
        #"{"inner":null,"label":null}"#
      ),
      (
        Sample(
          count: 1,
          ratio: 0.1,
          seed: .max,
          items: [2],
          inner: .init(name: "a", note: "n"),
          label: "x"
        ), #"{"items":[2]}"#
      ),
    ] as [(Sample, String)]
  )
  func aPatchHoldsTheChangeAndGivesTheStateAfter(_ after: Sample, _ expected: String) throws {
    let patch = try #require(try StatePatch<Sample>.make(from: Self.before, to: after))
    #expect(patch == expected)
    var patched = Self.before
    try StatePatch<Sample>.apply(patch)(&patched)
    #expect(patched == after)
  }

  @Test func thereIsNoPatchBetweenEqualStates() throws {
    #expect(try StatePatch<Sample>.make(from: Self.before, to: Self.before) == nil)
  }

  @Test func aPatchAddsAMemberThatWasNil() throws {
    var before = Self.before
    before.inner = nil
    let patch = try #require(try StatePatch<Sample>.make(from: before, to: Self.before))
    #expect(patch == #"{"inner":{"name":"a","note":"n"}}"#)
    try StatePatch<Sample>.apply(patch)(&before)
    #expect(before == Self.before)
  }

  @Test func aPatchThatIsNotTheStatesJSONThrows() {
    var state = Self.before
    #expect(throws: (any Error).self) { try StatePatch<Sample>.apply(#"{"count":"two"}"#)(&state) }
    #expect(throws: (any Error).self) { try StatePatch<Sample>.apply("{").self(&state) }
    #expect(state == Self.before)
  }

  // MARK: - Recorded effects

  /// An effect waits for its outcome until the test releases it.
  @Test func anEffectGetsItsOutcomeOnceReleased() async {
    let effects = RecordedEffects<String>([(7, nil, "saved")])
    let arrived = Watched<String?>(nil)
    let effect = Task { arrived.set(await effects.outcome()) }
    while effects.waitingEffects == 0 { await Task.yield() }
    #expect(arrived.value == nil)
    effects.release(7)
    await effect.value
    #expect(arrived.value == "saved")
    #expect(effects.waitingEffects == 0)
    #expect(effects.problems == [])
  }

  /// Without keys, the n-th effect gets the n-th outcome; one released before it asks gets it
  /// at once.
  @Test func effectsWithoutKeysGetTheOutcomesInTheirOrder() async {
    let effects = RecordedEffects<String>([(7, nil, "saved"), (9, nil, "loaded")])
    effects.release(7)
    effects.release(9)
    #expect(await effects.outcome() == "saved")
    #expect(await effects.outcome() == "loaded")
    #expect(effects.problems == [])
  }

  @Test func anEffectWithAKeyGetsTheOutcomeRecordedWithIt() async {
    let effects = RecordedEffects<String>([(3, 2, "page 2"), (5, 1, "page 1")])
    effects.release(5)
    effects.release(3)
    #expect(await effects.outcome(forKey: 1) == "page 1")
    #expect(await effects.outcome(forKey: 2) == "page 2")
    #expect(effects.problems == [])
  }

  /// An effect whose outcome the recording does not hold (a request cancelled before it
  /// answered) waits until it is cancelled, and is no problem; a release of a record that holds
  /// no outcome is one.
  @Test func anEffectTheRecordingHoldsNoOutcomeForWaitsUntilCancelled() async {
    let effects = RecordedEffects<String>([(3, 1, "page 1")])
    let orphan = Task { await effects.outcome(forKey: 4) }
    while effects.waitingEffects == 0 { await Task.yield() }
    effects.release(3)
    #expect(await effects.outcome(forKey: 1) == "page 1")
    #expect(effects.waitingEffects == 1, "the orphan still waits")
    orphan.cancel()
    #expect(await orphan.value == nil)
    #expect(effects.waitingEffects == 0)
    effects.release(8)
    #expect(effects.problems == ["record #8 holds no effect's outcome"])
  }

  @Test func aCancelledEffectStopsWaiting() async {
    let effects = RecordedEffects<String>([(3, nil, "saved")])
    let waiting = Task { await effects.outcome() }
    waiting.cancel()
    #expect(await waiting.value == nil)
  }
}

/// `cascade-inspect FILE --export-test OUT.swift`, as a user runs it.
@Suite struct ExportTestExecutableTests {
  static let inspector = builtProduct(named: "cascade-inspect")
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The file written is the test committed for the same recording (`Recorded/`), but for the
  /// command its header names.
  @Test(arguments: Architecture.allCases)
  func theTestWrittenIsTheRecordingsTest(_ architecture: Architecture) async throws {
    let inspector = try #require(Self.inspector, "build the cascade-inspect product first")
    let directory = try TemporaryDirectory()
    let files = RecordedTestFiles(
      app: "rpg",
      command: "play",
      architecture: architecture.rawValue,
      target: "RPGTests",
      prefix: "RPGPlay"
    )
    let out = directory.file(files.test.lastPathComponent)
    let run = try await runChild(
      inspector,
      [files.recording.path, "--export-test", out.path]
    )
    #expect(run.succeeded, "\(run.summary)")
    let written = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
    let committed = try String(contentsOf: files.test, encoding: .utf8).split(separator: "\n")
    #expect(written[2] == "// `cascade-inspect \(files.recording.path) --export-test \(out.path)`")
    #expect(written.count == committed.count)
    let writtenBody = Array(written.prefix(2)) + Array(written.dropFirst(3))
    let committedBody = Array(committed.prefix(2)) + Array(committed.dropFirst(3))
    #expect(writtenBody == committedBody)
  }

  /// A file name that cannot name a suite, a recording of an app of one's own, a recording that
  /// does not replay, a missing recording, and a place that cannot be written: one line each, the documented status, nothing written.
  @Test func whatCannotBeMadeIsRefusedInOneLine() async throws {
    let inspector = try #require(Self.inspector, "build the cascade-inspect product first")
    let directory = try TemporaryDirectory()
    let rpg = Self.repository.appendingPathComponent("Apps/Tests/Recordings/rpg-play-store.jsonl")
    let ownApp = Self.repository
      .appendingPathComponent("Tooling/Fuzz/Corpus/fuzz-inspector/own-app-with-states.jsonl")
    // A recording whose potion heals more than the game's rules do: it does not replay.
    let tampered = directory.file("tampered.jsonl")
    let original = try String(contentsOf: rpg, encoding: .utf8)
    #expect(original.contains(#"{"potionDrunk":{"healed":2}}"#))
    try original.replacingOccurrences(
      of: #"{"potionDrunk":{"healed":2}}"#,
      with: #"{"potionDrunk":{"healed":5}}"#
    ).write(to: tampered, atomically: true, encoding: .utf8)
    let taken = directory.file("Taken.swift")
    try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: false)
    let out = directory.file("T.swift").path
    let live = "ws://127.0.0.1:1/live"
    let cases: [(file: String?, out: String, status: Int32, says: String)] = [
      (rpg.path, directory.file("not-a-suite.swift").path, 64, "named after its suite"),
      (rpg.path, directory.file("Tests.txt").path, 64, "named after its suite"),
      (nil, out, 64, "a recording FILE"),
      (ownApp.path, out, 65, "it is not a session recording"),
      (tampered.path, out, 65, "cannot make a test of"),
      (directory.file("none.jsonl").path, out, 66, "no such file"),
      (rpg.path, directory.file("missing/T.swift").path, 74, "cannot write"),
      (rpg.path, taken.path, 74, "cannot write"),
    ]
    for (file, out, status, says) in cases {
      let arguments = (file.map { [$0] } ?? ["--live", live]) + ["--export-test", out]
      let run = try await runChild(inspector, arguments)
      #expect(run.status == status && !run.signalled, "\(arguments): \(run.summary)")
      let lines = run.errorText.split(separator: "\n")
      #expect(lines.contains { $0.contains(says) }, "\(arguments): \(run.errorText)")
      #expect(run.outputText.isEmpty)
    }
    #expect(!FileManager.default.fileExists(atPath: directory.file("T.swift").path))
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: taken.path, isDirectory: &isDirectory))
    #expect(isDirectory.boolValue)
  }
}

/// The page's "Export as test": `/api/export-test` answers an app's session recording with the
/// test the generator makes of it, named after its suite, and only that.
@Suite struct ExportTestPageTests {
  @Test(.enabled(if: InspectorExecutableTests.inspector != nil, "build cascade-inspect first"))
  func theRecordingIsExportedAsItsTest() async throws {
    let files = RecordedTestFiles(
      app: "rpg",
      command: "play",
      architecture: "reactor",
      target: "RPGTests",
      prefix: "RPGPlay"
    )
    let served = try await InspectorExecutableTests.serve(files.recording)
    defer { Task { await served.child.stop() } }
    #expect(try served.get("/api/summary").json()["testable"] as? Bool == true)
    let answer = try served.get("/api/export-test")
    #expect(answer.status == 200, "\(answer.text.prefix(300))")
    #expect(
      answer.headers["content-disposition"]
        == "attachment; filename=\"RPGPlayReactorRecordingTests.swift\""
    )
    let lines = answer.text.split(separator: "\n")
    let committed = try String(contentsOf: files.test, encoding: .utf8).split(separator: "\n")
    #expect(lines[2] == "// `the inspector's Export as test`")
    let body = Array(lines.prefix(2)) + Array(lines.dropFirst(3))
    let committedBody = Array(committed.prefix(2)) + Array(committed.dropFirst(3))
    #expect(body == committedBody)

    // A recording of one's own app (here the inspector's own export) is not an app's session.
    let exported = try served.get("/api/export")
    let imported = try loopbackRequest(
      port: served.port,
      path: "/api/import",
      method: "POST",
      headers: ["X-Cascade-Token": served.token],
      body: exported.body
    )
    #expect(imported.status == 200, "\(imported.text)")
    #expect(try served.get("/api/summary").json()["testable"] == nil)
    let refused = try served.get("/api/export-test")
    #expect(refused.status == 404)
    #expect(refused.text.contains("an app's session recording"))
    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
  }
}
