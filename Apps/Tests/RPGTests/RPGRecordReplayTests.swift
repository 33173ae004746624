import AppSupport
import AppTestSupport
import Foundation
import Testing

/// `rpg play --record FILE`, then `rpg play --replay FILE`, run as a player runs them (the built
/// executable): the replay prints byte for byte what the live run printed, with no script and no
/// terminal input, and leaves the save file alone; a recording that cannot be replayed is
/// refused with one line and its exit status.
@Suite struct RPGRecordReplayTests {
  static let executable = builtProduct(named: "rpg")

  /// Runs `rpg`; killed after 60 seconds.
  static func rpg(_ arguments: [String], input: ChildInput = .text("")) async throws -> ChildRun {
    let executable = try #require(executable, "build the rpg product first")
    let run = try await runChild(executable, arguments, input: input)
    #expect(!run.timedOut && !run.signalled, "rpg \(arguments): \(run.summary)")
    return run
  }

  /// A game that meets monsters, levels up once (the seed's middleware says "Leveled Up!"),
  /// shows the help and the state, saves and loads.
  static let script = """
    # a game to record
    new Ada 42
    explore
    attack
    help
    attack
    show
    attack
    explore
    attack
    attack
    save
    load

    """

  /// Proves that a replayed script run prints exactly what the live run printed — on every
  /// architecture, with the script file gone, nothing on standard input, and the save file
  /// (written by the live run's save) byte for byte unchanged by the replay, which neither loads
  /// nor saves it.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: Architecture.allCases
  )
  func aReplayedScriptPrintsWhatTheLiveRunPrinted(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json").path
    let script = directory.file("game.txt")
    let recording = directory.file("game.jsonl").path
    try Data(Self.script.utf8).write(to: script)
    let options = ["--save", save, "--architecture", architecture.rawValue]

    let live = try await Self.rpg(
      ["play", "--script", script.path, "--record", recording] + options
    )
    #expect(live.succeeded, "\(live.summary)")
    #expect(live.outputText.contains("A Goblin appears!"))
    #expect(live.outputText.contains("Game loaded: Ada"))
    #expect(live.outputText.contains("Leveled Up!"))
    let saved = try Data(contentsOf: URL(fileURLWithPath: save))
    try FileManager.default.removeItem(at: script)

    let replayed = try await Self.rpg(["play", "--replay", recording] + options, input: .closed)
    #expect(replayed.succeeded, "\(replayed.summary)")
    #expect(replayed.output == live.output)
    #expect(replayed.errorText.isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: save)) == saved)
  }

  /// Proves that a replayed interactive session prints exactly what the live one printed (the
  /// banner, every prompt, the help, the turns, in text and in JSON) and says the same on
  /// standard error (the line it did not understand), with standard input closed: the lines
  /// typed come from the recording.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: Architecture.allCases,
    [false, true]
  )
  func aReplayedInteractiveSessionPrintsWhatTheLiveOnePrinted(
    _ architecture: Architecture,
    json: Bool
  ) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json").path
    let recording = directory.file("session.jsonl").path
    let options =
      ["--save", save, "--architecture", architecture.rawValue] + (json ? ["--json"] : [])
    let typed = "new Bob 7\nexplore\n\n# a comment\ndance\nattack\nhelp\nsave\nattack\nshow\nq\n"

    let live = try await Self.rpg(["play", "--record", recording] + options, input: .text(typed))
    #expect(live.succeeded, "\(live.summary)")
    #expect(live.errorText.contains("unknown command 'dance'"))

    let replayed = try await Self.rpg(["play", "--replay", recording] + options, input: .closed)
    #expect(replayed.succeeded, "\(replayed.summary)")
    #expect(replayed.output == live.output)
    #expect(replayed.errors == live.errors)
  }

  /// Proves that `rpg new` and `rpg show` record and replay too: each replay prints what its
  /// live run printed, in text and JSON, without reading or writing the save (it is deleted
  /// before the replays: `show` would fail without it, and `new` would bring it back); and
  /// that the refusal of `new` over a saved game replays with its status and line.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: Architecture.allCases,
    [false, true]
  )
  func newAndShowReplayWhatTheyPrinted(_ architecture: Architecture, json: Bool) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json")
    let options =
      ["--save", save.path, "--architecture", architecture.rawValue] + (json ? ["--json"] : [])
    let runs: [(name: String, arguments: [String], status: Int32)] = [
      ("new", ["new", "--name", "Ada", "--seed", "9"], 0),
      ("show", ["show"], 0),
      ("refused", ["new", "--name", "Bo"], 1),
    ]
    var live: [String: ChildRun] = [:]
    for (name, arguments, status) in runs {
      let recording = directory.file("\(name).jsonl").path
      let run = try await Self.rpg(arguments + ["--record", recording] + options)
      #expect(run.status == status, "\(name): \(run.summary)")
      live[name] = run
    }
    try FileManager.default.removeItem(at: save)
    for (name, arguments, status) in runs {
      let recording = directory.file("\(name).jsonl").path
      let replayed = try await Self.rpg(
        arguments + ["--replay", recording] + options,
        input: .closed
      )
      #expect(replayed.status == status, "\(name): \(replayed.summary)")
      #expect(replayed.output == live[name]?.output, "\(name)")
      #expect(replayed.errors == live[name]?.errors, "\(name)")
      #expect(!FileManager.default.fileExists(atPath: save.path), "\(name) wrote the save")
    }
  }

  /// Proves that a recording that cannot be replayed is refused before anything is played: a
  /// missing or unreadable file (a directory) with status 66, any other bad recording (truncated,
  /// corrupt, of a newer format version, of another architecture or app, not a session) with
  /// status 65, each
  /// with one line on standard error naming the file and why (and the line, for a damaged one),
  /// nothing on standard output, and the save file untouched; `--record` with `--replay` is a
  /// usage error (64) that creates no file, and a recording that cannot be created ends the run
  /// with 74 before anything is played.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"))
  func aBadRecordingIsRefusedWithOneLineAndItsExitStatus() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json").path
    let recording = directory.file("game.jsonl")
    let recorded = try await Self.rpg(
      ["play", "--save", save, "--record", recording.path],
      input: .text("new Ada 42\nexplore\nattack\nsave\n")
    )
    #expect(recorded.succeeded, "\(recorded.summary)")
    let saved = try Data(contentsOf: URL(fileURLWithPath: save))
    let text = try String(contentsOf: recording, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.last == "")
    lines.removeLast()

    func file(_ name: String, _ content: String) throws -> String {
      let url = directory.file(name)
      try Data(content.utf8).write(to: url)
      return url.path
    }
    let last = lines.count
    let truncated = try file(
      "truncated.jsonl",
      (lines.dropLast() + [String(lines[last - 1].prefix(30))]).joined(separator: "\n")
    )
    var corruptLines = lines
    corruptLines[3] = #"{"input":{"rpg.store":{"dance":{}}},"sequence":3,"time":0}"#
    let corrupt = try file("corrupt.jsonl", corruptLines.joined(separator: "\n") + "\n")
    let newer = try file(
      "newer.jsonl",
      ([#"{"cascadeRecording":2}"#] + lines.dropFirst()).joined(separator: "\n") + "\n"
    )
    let otherApp = try file(
      "todo.jsonl",
      #"""
      {"cascadeRecording":1}
      {"input":{"session":{"app":"todo","architecture":"store","command":"shell","start":{}}},"sequence":1,"time":0}

      """#
    )
    let notASession = try file(
      "plain.jsonl",
      "{\"cascadeRecording\":1}\n{\"input\":\"explore\",\"sequence\":1,\"time\":0}\n"
    )
    let cases: [(arguments: [String], status: Int32, message: String)] = [
      (["--replay", directory.file("none.jsonl").path], 66, "there is no such file"),
      (
        ["--replay", directory.url.path], 66,
        "cannot replay \(directory.url.path): it is a directory"
      ),
      (["--replay", truncated], 65, "line \(last): truncated recording"),
      (["--replay", corrupt], 65, "line 4: corrupt record"),
      (
        ["--replay", newer], 65,
        "line 1: the recording is in format version 2, and this version of Cascade reads version 1"
      ),
      (
        ["--replay", recording.path, "--architecture", "reactor"], 65,
        "it was recorded on the store architecture: replay it with --architecture store"
      ),
      (["--replay", otherApp], 65, "it is a recording of todo, not of rpg"),
      (["--replay", notASession], 65, "it is not a session recording"),
    ]
    for (arguments, status, message) in cases {
      let run = try await Self.rpg(["play", "--save", save] + arguments, input: .closed)
      #expect(run.status == status, "rpg play \(arguments): \(run.summary)")
      #expect(run.errorText.hasPrefix("rpg: cannot replay "), "rpg play \(arguments)")
      #expect(run.errorText.contains(message), "rpg play \(arguments): \(run.errorText)")
      #expect(
        run.errorText.split(separator: "\n").count == 1,
        "rpg play \(arguments) said more than one line: \(run.errorText)"
      )
      #expect(run.output.isEmpty, "rpg play \(arguments) printed \(run.outputText)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: save)) == saved)
    }

    let other = directory.file("other.jsonl")
    let both = try await Self.rpg(
      ["play", "--save", save, "--record", other.path, "--replay", recording.path]
    )
    #expect(both.status == 64, "\(both.summary)")
    #expect(both.errorText.contains("--record and --replay exclude each other"))
    #expect(!FileManager.default.fileExists(atPath: other.path))
    let nowhere = directory.file("none/game.jsonl").path
    let unrecordable = try await Self.rpg(["play", "--save", save, "--record", nowhere])
    #expect(unrecordable.status == 74, "\(unrecordable.summary)")
    #expect(
      unrecordable.errorText
        == "rpg: cannot record the session: a record could not be written to \(nowhere): "
        + "there is no directory \(directory.file("none").path)\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: save)) == saved)
    let script = try await Self.rpg(
      ["play", "--save", save, "--script", recording.path, "--replay", recording.path]
    )
    #expect(script.status == 64, "\(script.summary)")
    #expect(script.errorText.contains("--script and --replay exclude each other"))
  }
}
