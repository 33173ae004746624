import AppSupport
import AppTestSupport
import Foundation
import Testing

/// The built `rpg` executable prints the same bytes for the same game: on every architecture
/// (the seed's "Leveled Up!" included), run after run, and when a recording of it is replayed.
@Suite struct RPGSameOutputTests {
  static let executable = builtProduct(named: "rpg")

  /// The seeded script of 500 commands the tests play.
  static let seeded = SeededScript.make(seed: 2_026)

  /// Runs `rpg` in `directory` (so that `--save save.json` names the same path in every run's
  /// output); killed after 60 seconds.
  static func rpg(
    _ arguments: [String],
    in directory: URL,
    input: ChildInput = .text("")
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the rpg product first")
    let run = try await runChild(executable, arguments, input: input, in: directory)
    #expect(!run.timedOut && !run.signalled, "rpg \(arguments): \(run.summary)")
    return run
  }

  /// How a script is played.
  enum Mode: String, CaseIterable, Sendable {
    /// `--script FILE`, text.
    case script
    /// `--script FILE --json`.
    case json
    /// The lines typed on standard input, text.
    case typed
  }

  /// Proves that the same game prints byte-identical standard output on the store, the reactor
  /// and the feedback loop — the demo and a seeded 500-command script, played from a file in
  /// text and JSON and typed on standard input — with nothing on standard error, status 0, and
  /// byte-identical save files; the text has the seed's "Leveled Up!", which only the store
  /// printed before.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: ["demo", "seeded"],
    Mode.allCases
  )
  func theSameGamePrintsTheSameOnEveryArchitecture(_ name: String, mode: Mode) async throws {
    let script =
      name == "demo"
      ? try String(contentsOf: DemoScriptTests.demo, encoding: .utf8) : Self.seeded
    var outputs: [Data] = []
    var saves: [Data] = []
    for architecture in Architecture.allCases {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try Data(script.utf8).write(to: directory.file("game.txt"))
      let options = ["--save", "save.json", "--architecture", architecture.rawValue]
      let run: ChildRun
      switch mode {
      case .script:
        run = try await Self.rpg(["play", "--script", "game.txt"] + options, in: directory.url)
      case .json:
        run = try await Self.rpg(
          ["play", "--script", "game.txt", "--json"] + options,
          in: directory.url
        )
      case .typed:
        run = try await Self.rpg(["play"] + options, in: directory.url, input: .text(script))
      }
      #expect(run.status == 0, "\(architecture): \(run.summary)")
      #expect(run.errorText.isEmpty, "\(architecture): \(run.errorText)")
      outputs.append(run.output)
      saves.append(try Data(contentsOf: directory.file("save.json")))
    }
    #expect(outputs.count == 3 && !outputs[0].isEmpty)
    #expect(outputs[1] == outputs[0], "the reactor's output differs from the store's")
    #expect(outputs[2] == outputs[0], "the feedback loop's output differs from the store's")
    #expect(saves[1] == saves[0] && saves[2] == saves[0])
    let text = String(decoding: outputs[0], as: UTF8.self)
    if mode != .json {
      #expect(text.contains("Leveled Up!\n"))
      #expect(!text.contains("Leveled Up!\nLeveled Up!\n"))
    }
  }

  /// Proves that a seeded 500-command script prints byte-identical output in two live runs, the
  /// second one recorded, and in the replay of that recording — which needs no script (it is
  /// deleted first), reads nothing on standard input and leaves the save file byte for byte
  /// as the live run wrote it.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: Architecture.allCases
  )
  func aSeededScriptPrintsTheSameInEveryRunAndInItsReplay(
    _ architecture: Architecture
  ) async throws {
    let first = try TemporaryDirectory()
    defer { first.remove() }
    let second = try TemporaryDirectory()
    defer { second.remove() }
    let options = ["--save", "save.json", "--architecture", architecture.rawValue]
    for directory in [first, second] {
      try Data(Self.seeded.utf8).write(to: directory.file("game.txt"))
    }

    let once = try await Self.rpg(["play", "--script", "game.txt"] + options, in: first.url)
    let twice = try await Self.rpg(
      ["play", "--script", "game.txt", "--record", "game.jsonl"] + options,
      in: second.url
    )
    #expect(once.status == 0 && once.errors.isEmpty, "\(once.summary)")
    #expect(twice.status == 0 && twice.errors.isEmpty, "\(twice.summary)")
    #expect(once.output.count > 10_000)
    #expect(twice.output == once.output)
    let saved = try Data(contentsOf: second.file("save.json"))
    #expect(try Data(contentsOf: first.file("save.json")) == saved)

    try FileManager.default.removeItem(at: second.file("game.txt"))
    let replayed = try await Self.rpg(
      ["play", "--replay", "game.jsonl"] + options,
      in: second.url,
      input: .closed
    )
    #expect(replayed.status == 0, "\(replayed.summary)")
    #expect(replayed.errors.isEmpty)
    #expect(replayed.output == twice.output)
    #expect(try Data(contentsOf: second.file("save.json")) == saved)
  }
}
