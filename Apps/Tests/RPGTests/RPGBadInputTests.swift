import AppTestSupport
import Foundation
import Testing

/// The `rpg` executable against hostile input: each refusal is a message on standard error and
/// a non-zero exit by the program itself (never a signal, never a hang), and the save file is
/// byte for byte what it was.
@Suite struct RPGBadInputTests {
  static let executable = builtProduct(named: "rpg")

  /// Runs `rpg`; killed after 60 seconds.
  static func rpg(
    _ arguments: [String],
    input: ChildInput = .text(""),
    shell: String? = nil
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the rpg product first")
    return try await runChild(executable, arguments, input: input, shell: shell)
  }

  /// A directory holding a started game, `save.json`.
  static func withSavedGame(_ body: (URL) async throws -> Void) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json")
    let created = try await rpg(["new", "--name", "Ada", "--seed", "7", "--save", save.path])
    #expect(created.succeeded, "\(created.summary)")
    try await body(save)
  }

  /// Every refused command line says why, exits non-zero by itself, and leaves the save alone.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle")
  )
  func refusedCommandLinesLeaveTheSaveUntouched() async throws {
    try await Self.withSavedGame { save in
      let before = try Data(contentsOf: save)
      let path = save.path
      let cases: [([String], String)] = [
        (["dance"], "dance"),
        (["play", "dance"], "dance"),
        (["show", "--bogus", "--save", path], "--bogus"),
        (["show", "-x", "--save", path], "-x"),
        (["new", "--save", path], "--name"),
        (["new", "--name", "--save", path], "--name"),
        (["new", "--name", "", "--save", path, "--force"], "--name must not be empty"),
        (["new", "--name", " \t ", "--save", path, "--force"], "--name must not be empty"),
        (["new", "--name", "Ada", "--seed", "-1", "--save", path, "--force"], "--seed"),
        (
          ["new", "--name", "Ada", "--seed", "18446744073709551616", "--save", path, "--force"],
          "18446744073709551616"
        ),
        (["new", "--name", "Grace", "--save", path], "--force"),
        (["show", "--save", ""], "--save needs a path"),
        (["show", "--save", path, "--architecture", ""], "The value '' is invalid"),
        (["show", "--save", path, "--architecture", "💥"], "The value '💥' is invalid"),
        (["play", "--save", path, "--script", ""], "--script needs a path"),
        (["play", "--save", path, "--script", "/proc/none/script.txt"], "cannot read the script"),
        (["play", "--save", path, "--script", "/"], "cannot read the script"),
        (["play", "--save", path, "--script"], "--script"),
      ]
      for (arguments, message) in cases {
        let run = try await Self.rpg(arguments)
        #expect(run.refusedCleanly, "rpg \(arguments): \(run.summary)")
        #expect(run.errorText.contains(message), "rpg \(arguments): \(run.errorText)")
        #expect(try Data(contentsOf: save) == before, "rpg \(arguments) changed the save")
      }
    }
  }

  /// A 100 KB name is either taken whole or refused; nothing is cut or garbled.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle")
  )
  func aVeryLongNameIsKeptWhole() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json").path
    let name = String(repeating: "é", count: 50_000)  // 100 KB of UTF-8
    let created = try await Self.rpg(["new", "--name", name, "--save", save, "--json"])
    #expect(created.succeeded, "\(created.summary)")
    let shown = try await Self.rpg(["show", "--save", save, "--json"])
    #expect(shown.succeeded, "\(shown.summary)")
    let state = try JSONSerialization.jsonObject(with: shown.output) as? [String: Any]
    let player = (state?["game"] as? [String: Any])?["player"] as? [String: Any]
    #expect(player?["name"] as? String == name)
  }

  /// Bytes that are not UTF-8, in an argument, a script or the interactive input, are refused
  /// with status 65 and one line naming where they are, and the save is left as it was: the
  /// argument before anything runs, the script before anything is played, the typed line
  /// ending the session without saving the turns played before it.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: ["store", "reactor", "feedback"]
  )
  func bytesThatAreNotUTF8AreRefused(_ architecture: String) async throws {
    try await Self.withSavedGame { save in
      let before = try Data(contentsOf: save)
      let path = save.path
      let options = ["--save", path, "--architecture", architecture]

      let argument = try await Self.rpg(
        ["--force"] + options,
        shell: #"p="$1"; shift; exec "$p" new --name "$(printf 'A\377\376B')" "$@""#
      )
      #expect(argument.status == 65, "\(argument.summary)")
      #expect(
        argument.errorText
          == "rpg: the value of --name (argument 3) is not valid UTF-8; nothing was done\n"
      )
      #expect(argument.output.isEmpty)
      #expect(try Data(contentsOf: save) == before)

      let script = save.deletingLastPathComponent().appendingPathComponent("bad.txt")
      try Data([0x65, 0x78, 0x70, 0x6C, 0x6F, 0x72, 0x65, 0x0A, 0xFF, 0xFE, 0x0A]).write(to: script)
      let scripted = try await Self.rpg(["play", "--script", script.path] + options)
      #expect(scripted.status == 65, "\(scripted.summary)")
      #expect(
        scripted.errorText == "rpg: \(script.path): line 2 is not valid UTF-8; nothing was played\n"
      )
      #expect(scripted.output.isEmpty)
      #expect(try Data(contentsOf: save) == before)

      // Two turns played, then a line that is not UTF-8: the session ends, unsaved.
      let typed = try await Self.rpg(
        ["play"] + options,
        input: .bytes(Data("explore\nattack\n".utf8) + Data([0xC3, 0x0A]) + Data("save\n".utf8))
      )
      #expect(typed.status == 65, "\(typed.summary)")
      #expect(
        typed.errorText
          == "rpg: line 3 of standard input is not valid UTF-8; the game was not saved\n"
      )
      #expect(typed.outputText.contains("appears!"))
      #expect(typed.outputText.hasSuffix("> \n"))
      #expect(try Data(contentsOf: save) == before)

      // A NUL on its own line is valid UTF-8: an unknown command, shown escaped.
      let nul = try await Self.rpg(["play"] + options, input: .text("\u{0}\nshow\n"))
      #expect(nul.succeeded, "\(nul.summary)")
      #expect(nul.errorText.contains(#"unknown command '\u{0}'"#))
      #expect(try Data(contentsOf: save) == before)
    }
  }

  /// Interactive play with standard input closed (not just empty) ends cleanly, saving nothing.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle")
  )
  func closedStandardInputEndsTheSessionCleanly() async throws {
    try await Self.withSavedGame { save in
      let before = try Data(contentsOf: save)
      for arguments in [["play"], ["play", "--json"]] {
        let run = try await Self.rpg(arguments + ["--save", save.path], input: .closed)
        #expect(run.succeeded, "rpg \(arguments): \(run.summary)")
        #expect(try Data(contentsOf: save) == before)
      }
    }
  }

  /// A truncated save (a real one, cut short), a save from a newer version and a save that is
  /// not JSON (binary) are each reported by every command that reads the save, and kept.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle")
  )
  func unreadableSavesAreReportedAndKept() async throws {
    try await Self.withSavedGame { save in
      let good = try Data(contentsOf: save)
      let newer = try #require(
        String(decoding: good, as: UTF8.self).replacing(#""version" : 1"#, with: #""version" : 9"#)
          .data(using: .utf8)
      )
      #expect(newer != good, "the save's version field was not found")
      let saves: [(String, Data, String)] = [
        ("truncated", good.prefix(good.count / 2), "corrupt"),
        ("truncated to nothing", Data(), "corrupt"),
        ("newer", newer, "newer version of the game (format 9"),
        ("binary", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0x00]), "corrupt"),
        ("text", Data("Ada was here\n".utf8), "corrupt"),
      ]
      for (kind, content, message) in saves {
        try content.write(to: save)
        let runs = [
          ("show", try await Self.rpg(["show", "--save", save.path])),
          ("play", try await Self.rpg(["play", "--save", save.path], input: .text("explore\n"))),
          (
            "script",
            try await Self.rpg(
              ["play", "--save", save.path, "--script", "/dev/stdin"],
              input: .text("explore\n")
            )
          ),
          ("new", try await Self.rpg(["new", "--name", "Bo", "--save", save.path])),
        ]
        for (command, run) in runs {
          #expect(run.refusedCleanly, "\(kind) save, \(command): \(run.summary)")
          #expect(
            run.errorText.contains(message)
              || (command == "new" && run.errorText.contains("--force")),
            "\(kind) save, \(command): \(run.errorText)"
          )
          #expect(try Data(contentsOf: save) == content, "\(kind) save, \(command): changed")
        }
      }
    }
  }
}
