import AppSupport
import AppTestSupport
import CascadeStreams
import Foundation
import Testing

/// What every sample app's command line promises, checked on the built `rpg`: names shown with
/// their control characters escaped (and exact in JSON), numbers checked with one line, a
/// closed output ending the program quietly with 74, `--version`, the exit codes in `--help`,
/// and one `--architecture` option.
@Suite struct RPGCommandLineTests {
  static let executable = builtProduct(named: "rpg")

  /// Runs `rpg`; killed after 60 seconds.
  static func rpg(
    _ arguments: [String],
    input: ChildInput = .text(""),
    shell: String? = nil
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the rpg product first")
    let run = try await runChild(executable, arguments, input: input, shell: shell)
    #expect(!run.timedOut && !run.signalled, "rpg \(arguments): \(run.summary)")
    return run
  }

  /// A new game saved in `directory` by `rpg new`: the save file, and what it holds.
  static func newSave(in directory: TemporaryDirectory) async throws -> (URL, Data) {
    let save = directory.file("save.json")
    let created = try await rpg(["new", "--name", "Ada", "--save", save.path])
    #expect(created.status == 0, "\(created.summary)")
    return (save, try Data(contentsOf: save))
  }

  /// A name that would forge a line and clear the screen if it were printed raw.
  static let hostileName = "Eve\nAda: level 99\u{1B}[2J\u{7}\\"
  /// How text output shows it.
  static let shownName = #"Eve\nAda: level 99\u{1B}[2J\u{7}\\"#

  /// Proves that a name with a newline, an escape sequence, a bell and a backslash is stored
  /// exactly (`--json` gives it back byte for byte) and shown escaped in text — by `new`,
  /// `show` and `play` on every architecture — so that it can neither make a line of its own
  /// nor reach the terminal as a control character; a typed line is escaped on standard error
  /// too.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: Architecture.allCases
  )
  func controlCharactersAreShownEscapedAndKeptExact(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json").path
    let options = ["--save", save, "--architecture", architecture.rawValue]

    let created = try await Self.rpg(["new", "--name", Self.hostileName] + options)
    #expect(created.status == 0, "\(created.summary)")
    let shown = try await Self.rpg(["show"] + options)
    #expect(shown.status == 0, "\(shown.summary)")
    #expect(
      shown.outputText
        == "\(Self.shownName): level 1, XP 0/10, HP 20/20, attack 5, potions 2, gold 0\n"
        + "No monster in sight (0 defeated so far).\n"
    )
    let played = try await Self.rpg(["play"] + options, input: .text("explore\ndance\u{1B}[31m\n"))
    #expect(played.status == 0, "\(played.summary)")
    #expect(
      played.errorText
        == #"rpg: unknown command 'dance\u{1B}[31m' (type 'help' to see the commands)"# + "\n"
    )
    for run in [created, shown, played] {
      let text = run.outputText + run.errorText
      #expect(!text.contains("\u{1B}") && !text.contains("\u{7}"))
      #expect(!text.contains("\nAda: level 99"))
      #expect(text.contains(Self.shownName))
    }

    let json = try await Self.rpg(["show", "--json"] + options)
    #expect(json.status == 0)
    let state = try JSONSerialization.jsonObject(with: json.output) as? [String: Any]
    let player = (state?["game"] as? [String: Any])?["player"] as? [String: Any]
    #expect(player?["name"] as? String == Self.hostileName)
  }

  /// Proves that a seed that is not a whole number from 0 to 2^64 - 1 — negative, too large, a
  /// fraction, NaN, infinity, blank — is refused with status 64 and one line saying what a seed
  /// must be, leaving the save as it was, while both ends of the range are taken; in the game,
  /// `new NAME SEED` says the same.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"))
  func seedsAreCheckedWithOneLine() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (save, before) = try await Self.newSave(in: directory)
    for seed in ["-1", "18446744073709551616", "1.5", "nan", "inf", "", " 7", "0x10", "--force"] {
      let run = try await Self.rpg(
        ["new", "--name", "Bo", "--force", "--save", save.path, "--seed", seed]
      )
      #expect(run.status == 64, "--seed \(seed): \(run.summary)")
      let first = run.errorText.split(separator: "\n").first.map(String.init)
      #expect(
        first
          == "Error: --seed must be a whole number from 0 to 18446744073709551615, not '\(seed)'",
        "--seed \(seed)"
      )
      #expect(try Data(contentsOf: save) == before, "--seed \(seed) changed the save")
    }
    for seed in ["0", "18446744073709551615"] {
      let run = try await Self.rpg(
        ["new", "--name", "Bo", "--force", "--save", save.path, "--seed", seed, "--json"]
      )
      #expect(run.status == 0, "--seed \(seed): \(run.summary)")
      let turn = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
      let game = (turn?["state"] as? [String: Any])?["game"] as? [String: Any]
      #expect((game?["seed"] as? NSNumber)?.uint64Value == UInt64(seed))
    }
    let typed = try await Self.rpg(["play", "--save", save.path], input: .text("new Ada -1\n"))
    #expect(typed.status == 0, "\(typed.summary)")
    #expect(
      typed.errorText
        == "rpg: 'new': the seed must be a whole number from 0 to 18446744073709551615, not '-1' "
        + "(usage: new NAME [SEED])\n"
    )
  }

  /// Proves that output to a closed pipe (`rpg show | head -0`, `head` gone before `rpg`
  /// writes) or a closed standard output ends `rpg` by itself with status 74 and nothing on
  /// standard error — `show`, `new`, `play` with a script or typed lines, text or JSON, on every
  /// architecture — and that an unsaved game is not saved.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: Architecture.allCases
  )
  func aClosedOutputEndsQuietlyWith74(_ architecture: Architecture) async throws {
    let executable = try #require(Self.executable)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json")
    let script = directory.file("game.txt")
    try Data("explore\nattack\n".utf8).write(to: script)
    let options = ["--save", save.path, "--architecture", architecture.rawValue]
    let created = try await Self.rpg(["new", "--name", "Ada"] + options)
    #expect(created.status == 0, "\(created.summary)")
    let before = try Data(contentsOf: save)

    let cases: [(arguments: [String], input: String)] = [
      (["show"] + options, ""),
      (["show", "--json"] + options, ""),
      (["play", "--script", script.path] + options, ""),
      (["play", "--script", script.path, "--json"] + options, ""),
      (["play"] + options, "explore\nattack\n"),
      (["new", "--name", "Bo", "--force"] + options, ""),
    ]
    for (arguments, input) in cases {
      let run = try await runChild(
        executable,
        arguments,
        input: .text(input),
        output: .closedPipe
      )
      #expect(!run.signalled, "rpg \(arguments) was killed by signal \(run.status)")
      #expect(run.status == 74, "rpg \(arguments): status \(run.status)")
      #expect(
        run.errors.isEmpty,
        "rpg \(arguments): \(String(decoding: run.errors, as: UTF8.self))"
      )
      if arguments.first != "new" {
        #expect(try Data(contentsOf: save) == before, "rpg \(arguments) changed the save")
      }
    }

    let closed = try await Self.rpg(
      options,
      shell: #"p="$1"; shift; exec "$p" show "$@" >&-"#
    )
    #expect(closed.status == 74, "\(closed.summary)")
    #expect(closed.errors.isEmpty)
  }

  /// Proves that `--version` prints the package's one version and that every command's `--help`
  /// lists the exit codes, with what leads to each in `rpg`.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"))
  func versionAndExitCodesAreDocumented() async throws {
    let version = try await Self.rpg(["--version"])
    #expect(version.status == 0)
    #expect(version.outputText == CascadeVersion.current + "\n")
    for command in [[], ["new"], ["play"], ["show"]] {
      let help = try await Self.rpg(command + ["--help"])
      #expect(help.status == 0, "rpg \(command) --help: \(help.summary)")
      #expect(help.outputText.contains("Exit codes:\n"), "rpg \(command) --help")
      for status in ExitStatus.allCases {
        #expect(help.outputText.contains("  \(status)\n"), "rpg \(command) --help: \(status)")
      }
      #expect(help.outputText.contains("In rpg: 1 when `rpg new` would replace a saved game"))
    }
  }

  /// Proves that `--architecture` is the shared option: any case of the three names, the same
  /// game on each, and one refusal for anything else (status 64), the save untouched.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"))
  func theArchitectureOptionIsTheSharedOne() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (save, before) = try await Self.newSave(in: directory)
    var shown: [Data] = []
    for name in ["store", "Reactor", "FEEDBACK"] {
      let run = try await Self.rpg(["show", "--json", "--save", save.path, "--architecture", name])
      #expect(run.status == 0, "\(name): \(run.summary)")
      shown.append(run.output)
    }
    #expect(Set(shown).count == 1)
    for name in ["mvc", "", "store,reactor"] {
      let run = try await Self.rpg(["show", "--save", save.path, "--architecture", name])
      #expect(run.status == 64, "\(name): \(run.summary)")
      #expect(
        run.errorText.hasPrefix(
          "Error: The value '\(name)' is invalid for '--architecture <architecture>'. "
            + "Please provide one of 'store', 'reactor' or 'feedback'.\n"
        ),
        "\(name): \(run.errorText)"
      )
      #expect(try Data(contentsOf: save) == before)
    }
  }

  /// Proves that the inspection options are checked before anything runs: a number of steps
  /// out of range, or either option without `--inspect`, is refused with status 64 and one line
  /// saying what was wrong, the save untouched.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"))
  func theInspectionOptionsAreCheckedWithOneLine() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (save, before) = try await Self.newSave(in: directory)
    let refusals: [([String], String)] = [
      (
        ["--inspect", "--inspect-steps", "0"],
        "--inspect-steps must be between 1 and 10000000, not 0"
      ),
      (
        ["--inspect", "--inspect-steps", "10000001"],
        "--inspect-steps must be between 1 and 10000000, not 10000001"
      ),
      (["--inspect-steps", "5"], "--inspect-steps needs --inspect"),
      (["--inspect-port", "8080"], "--inspect-port needs --inspect"),
    ]
    for (options, message) in refusals {
      let run = try await Self.rpg(["play", "--save", save.path] + options, input: .text("quit\n"))
      #expect(run.status == 64, "\(options): \(run.summary)")
      #expect(run.errorText.split(separator: "\n").first.map(String.init) == "Error: " + message)
      #expect(try Data(contentsOf: save) == before, "\(options) changed the save")
    }
  }
}
