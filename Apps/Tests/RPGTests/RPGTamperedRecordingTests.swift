import AppSupport
import AppTestSupport
import Foundation
import Testing

/// A recording edited after it was made — an input changed, a record removed, the state checks
/// stripped — is refused by `rpg play --replay` with 65 and one line, on every architecture,
/// instead of replayed into a state the game's rules cannot produce (before the state checks, a
/// changed damage replayed with 0 into a Goblin fighting on at 0 HP).
@Suite struct RPGTamperedRecordingTests {
  /// Records the demo game on `architecture` and returns the recording's lines.
  static func record(
    _ architecture: Architecture,
    in directory: TemporaryDirectory
  ) async throws -> [String] {
    let recording = directory.file("genuine.jsonl").path
    let live = try await RPGRecordReplayTests.rpg(
      [
        "play", "--script", DemoScriptTests.demo.path, "--record", recording,
        "--save", directory.file("save.json").path, "--architecture", architecture.rawValue,
      ]
    )
    #expect(live.succeeded, "\(live.summary)")
    let text = try String(contentsOfFile: recording, encoding: .utf8)
    return text.split(separator: "\n").map(String.init)
  }

  /// Replays `lines` as a recording on `architecture`: its run.
  static func replay(
    _ lines: [String],
    _ architecture: Architecture,
    in directory: TemporaryDirectory,
    name: String
  ) async throws -> ChildRun {
    let file = directory.file("\(name).jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
    return try await RPGRecordReplayTests.rpg(
      [
        "play", "--replay", file.path, "--save", directory.file("save.json").path,
        "--architecture", architecture.rawValue,
      ],
      input: .closed
    )
  }

  /// Whether `line` is a state check's record.
  static func isCheck(_ line: String) -> Bool { line.hasPrefix(#"{"input":{"check":"#) }

  /// Proves that the genuine recording replays (0), and that each edit is refused with 65 and
  /// one line naming the mismatch: the first fight's outcome changed (the damage a store's or a
  /// reactor's recorded effect rolled; the feedback loop rolls in its reducer, so there the
  /// attack input is turned into a rest), one input removed, and every state check removed.
  @Test(
    .enabled(if: RPGRecordReplayTests.executable != nil, "build the rpg product first"),
    arguments: Architecture.allCases
  )
  func anEditedRecordingIsRefused(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = try await Self.record(architecture, in: directory)
    let genuine = try await Self.replay(lines, architecture, in: directory, name: "genuine")
    #expect(genuine.succeeded, "\(genuine.summary)")

    // The first fight's outcome, changed.
    var changed = lines
    let (pattern, replacement) =
      architecture == .feedback
      ? (#""intent":{"_0":{"attack":{}}}"#, #""intent":{"_0":{"rest":{}}}"#)
      : (#""playerHit":{"damage":"#, #""playerHit":{"damage":1"#)
    let edited = try #require(changed.firstIndex { $0.contains(pattern) && !Self.isCheck($0) })
    changed[edited] = changed[edited].replacingOccurrences(of: pattern, with: replacement)
    #expect(changed[edited] != lines[edited])

    // One input (the one before the first state check), removed with its check.
    var removed = lines
    let firstCheck = try #require(removed.firstIndex(where: Self.isCheck))
    removed.removeSubrange((firstCheck - 1)...firstCheck)

    let stripped = lines.filter { !Self.isCheck($0) }
    #expect(stripped.count < lines.count)

    for (name, edit, reason) in [
      ("changed", changed, "is not the one recorded at record #"),
      // The front finds what is missing first or the check after it, whichever comes first.
      ("removed", removed, "the recording does not match this run"),
      ("stripped", stripped, "the recording holds no state checks"),
    ] {
      let run = try await Self.replay(edit, architecture, in: directory, name: name)
      #expect(run.status == 65, "\(name): \(run.summary)")
      #expect(run.errorText.filter { $0 == "\n" }.count == 1, "\(name): \(run.errorText)")
      #expect(run.errorText.contains("the recording does not match this run"), "\(name)")
      #expect(run.errorText.contains(reason), "\(name): \(run.errorText)")
    }
  }
}
