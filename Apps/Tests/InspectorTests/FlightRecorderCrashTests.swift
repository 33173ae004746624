import AppTestSupport
import Foundation
import InspectorKit
import Testing

/// A sample that crashes on purpose leaves its flight recorder's file, which the inspector
/// opens at the state before the crash (issue 36): `rpg play --flight-recorder FILE
/// --crash-after 3` traps (`fatalError`) before its fourth command, on every architecture.
@Suite struct FlightRecorderCrashTests {
  static let rpg = InspectorExecutableTests.rpg

  @Test(
    .enabled(if: rpg != nil, "build rpg first"),
    arguments: ["store", "reactor", "feedback"]
  )
  func aCrashLeavesAFileTheInspectorOpensAtTheStateBeforeIt(_ architecture: String) async throws {
    let rpg = try #require(Self.rpg)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let script = directory.file("game.txt")
    try Data("new Ada 42\nexplore\nattack\nattack\nshow\n".utf8).write(to: script)
    let firstThree = directory.file("three.txt")
    try Data("new Ada 42\nexplore\nattack\n".utf8).write(to: firstThree)
    let flight = directory.file("flight.jsonl")
    // The runtime's backtracer is off: it would only make the crash slower.
    let quiet = ["SWIFT_BACKTRACE": "enable=no"]

    let crashed = try await runChild(
      rpg,
      [
        "play", "--script", script.path, "--save", directory.file("save.json").path,
        "--architecture", architecture, "--flight-recorder", flight.path, "--crash-after", "3",
      ],
      environment: quiet
    )
    #expect(crashed.signalled && !crashed.timedOut, "\(crashed.summary)")
    #expect(crashed.errorText.contains("crashing on purpose after 3 commands"))

    // What the game's state was after the three commands, from a run that does not crash.
    let played = try await runChild(
      rpg,
      [
        "play", "--script", firstThree.path, "--save", directory.file("other.json").path,
        "--architecture", architecture, "--json",
      ],
      environment: quiet
    )
    #expect(played.succeeded, "\(played.summary)")
    let turns = played.outputText.split(separator: "\n").compactMap { line in
      try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }
    let expected = try #require(turns.last { $0["command"] as? String == "attack" }?["state"])

    // The inspector opens the file; its last step's state is the game's before the crash.
    let inspector = try Inspector(recordingAt: flight.path)
    let summary = try #require(
      try JSONSerialization.jsonObject(with: inspector.summary()) as? [String: Any]
    )
    let steps = try #require(summary["steps"] as? Int)
    #expect(steps > 3)
    let last = try #require(try inspector.step(steps - 1))
    let message = try #require(try JSONSerialization.jsonObject(with: last) as? [String: Any])
    let state = try #require(message["state"] as? [String: Any])
    // A feedback loop's state holds the game and its pending effects.
    let game = architecture == "feedback" ? state["game"] : state
    #expect((game as? NSDictionary) == (expected as? NSDictionary), "\(String(describing: game))")
    if architecture == "feedback" { #expect((state["pending"] as? [Any])?.isEmpty == true) }
    // The fourth command never ran: the save the script ends with was not written either.
    #expect(!FileManager.default.fileExists(atPath: directory.file("save.json").path))
  }

  /// A path that is not a regular file is refused before anything is played, with one line and
  /// status 74, and left as it is.
  @Test(.enabled(if: rpg != nil, "build rpg first"))
  func aFlightRecorderPathThatIsNotAFileIsRefused() async throws {
    let rpg = try #require(Self.rpg)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let run = try await runChild(
      rpg,
      [
        "play", "--save", directory.file("save.json").path, "--flight-recorder", directory.url.path,
      ],
      input: .text("new Ada 1\n")
    )
    #expect(run.status == 74 && !run.signalled, "\(run.summary)")
    #expect(
      run.errorText
        == "rpg: cannot keep a flight recording: \(directory.url.path) is not a regular file "
        + "(a device, a pipe or a socket)\n"
    )
    #expect(run.outputText.isEmpty)
  }
}
