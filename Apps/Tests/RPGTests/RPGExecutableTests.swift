import AppTestSupport
import Foundation
import Testing

/// Runs the built `rpg` executable, as a player would.
@Suite struct RPGExecutableTests {
  /// The `rpg` executable in the build products directory, next to the test bundle.
  static let executable: URL? = builtProduct(named: "rpg")

  struct Run {
    var status: Int32
    var output: String
    var errors: String
  }

  /// Runs `rpg` with `arguments` and `input` on standard input, and waits for it to exit without
  /// blocking a thread; killed after 60 seconds, which fails the test.
  func rpg(_ arguments: [String], input: String = "") async throws -> Run {
    let executable = try #require(
      Self.executable,
      "the rpg executable was not found next to the test bundle; build it first"
    )
    let run = try await runChild(executable, arguments, input: .text(input))
    #expect(!run.timedOut && !run.signalled, "rpg \(arguments): \(run.summary)")
    return Run(status: run.status, output: run.outputText, errors: run.errorText)
  }

  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: ["store", "reactor", "feedback"]
  )
  func aScriptedGamePlaysAndSaves(_ architecture: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json").path
    let script = directory.file("game.txt")
    try Data("# a short game\nnew Ada 42\nexplore\nattack\nattack\nshow\n".utf8).write(to: script)

    let played = try await rpg(
      ["play", "--script", script.path, "--save", save, "--architecture", architecture]
    )
    #expect(played.status == 0, "\(played.errors)")
    #expect(played.output.contains("A Goblin appears!"))
    #expect(played.output.contains("Game saved to \(save)."))
    #expect(played.errors.isEmpty)

    let shown = try await rpg(["show", "--save", save, "--json", "--architecture", architecture])
    #expect(shown.status == 0)
    let state = try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any]
    let game = state?["game"] as? [String: Any]
    let player = game?["player"] as? [String: Any]
    #expect(player?["name"] as? String == "Ada")
    #expect(game?["defeated"] as? Int == 1)
  }

  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"))
  func badInputIsReportedAndLosesNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json").path

    // No save yet.
    let missing = try await rpg(["show", "--save", save])
    #expect(missing.status != 0)
    #expect(missing.errors.contains("there is no saved game"))

    let created = try await rpg(["new", "--name", "Ada", "--seed", "7", "--save", save])
    #expect(created.status == 0, "\(created.errors)")
    let original = try Data(contentsOf: URL(fileURLWithPath: save))

    // A second `new` would replace the game: refused without --force.
    let again = try await rpg(["new", "--name", "Grace", "--save", save])
    #expect(again.status != 0)
    #expect(again.errors.contains("--force"))

    // A script with a bad line runs nothing.
    let script = directory.file("bad.txt")
    try Data("explore\nattack\ndance\n".utf8).write(to: script)
    let bad = try await rpg(["play", "--script", script.path, "--save", save])
    #expect(bad.status != 0)
    #expect(bad.errors.contains("line 3: unknown command 'dance'"))
    #expect(!bad.output.contains("appears"))

    // Bad arguments.
    let architecture = try await rpg(["show", "--save", save, "--architecture", "mvc"])
    #expect(architecture.status == 64)
    #expect(
      architecture.errors.hasPrefix(
        "Error: The value 'mvc' is invalid for '--architecture <architecture>'. "
          + "Please provide one of 'store', 'reactor' or 'feedback'.\n"
      )
    )
    let seed = try await rpg(["new", "--name", "Ada", "--seed", "many", "--save", save])
    #expect(seed.status != 0)
    let script404 = try await rpg([
      "play", "--script", directory.file("none.txt").path, "--save", save,
    ])
    #expect(script404.status != 0)
    #expect(script404.errors.contains("cannot read the script"))

    // An unknown command in the interactive loop is reported; the loop goes on.
    let interactive = try await rpg(["play", "--save", save], input: "dance\nexplore\n")
    #expect(interactive.status == 0)
    #expect(interactive.errors.contains("unknown command 'dance'"))
    #expect(interactive.output.contains("appears"))

    // A corrupt save is reported and kept.
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: save))
    let corrupt = try await rpg(["play", "--save", save], input: "explore\n")
    #expect(corrupt.status != 0)
    #expect(corrupt.errors.contains("corrupt"))
    #expect(try String(contentsOfFile: save, encoding: .utf8) == "garbage")
    #expect(!original.isEmpty)
  }

  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"))
  func theDemoPrintsTheSameJSONOnEveryArchitecture() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var outputs: [String] = []
    for architecture in ["store", "reactor", "feedback"] {
      let save = directory.file("\(architecture).json").path
      let run = try await rpg([
        "play", "--script", DemoScriptTests.demo.path, "--save", save, "--json",
        "--architecture", architecture,
      ])
      #expect(run.status == 0, "\(run.errors)")
      let lines = run.output.split(separator: "\n")
      #expect(lines.count > 10)
      for line in lines {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object != nil, "not a JSON object: \(line)")
      }
      outputs.append(run.output)
    }
    #expect(Set(outputs).count == 1)
  }
}
