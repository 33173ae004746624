import AppTestSupport
import Foundation
import Testing

/// The `rpg` executable against saves whose numbers the rules cannot reach, scripts with Windows
/// line endings, and help or version into a closed standard output.
@Suite struct RPGHostileInputTests {
  static let executable = builtProduct(named: "rpg")

  /// `Apps/RPG/demo.txt`, the README's scripted demo.
  static var demo: URL { DemoScriptTests.demo }

  /// Runs `rpg`; killed after 60 seconds, a safety net.
  static func rpg(
    _ arguments: [String],
    input: ChildInput = .text(""),
    output: ChildOutput = .file,
    in directory: URL? = nil,
    shell: String? = nil
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the rpg product first")
    return try await runChild(
      executable,
      arguments,
      input: input,
      output: output,
      in: directory,
      shell: shell
    )
  }

  /// A save of a started game with the field at `path` (`player.xp`) replaced by the JSON number
  /// `literal`, written as it is (`9223372036854775807`, `4e18`).
  static func save(
    setting path: [String],
    to literal: String,
    in directory: TemporaryDirectory
  )
    async throws -> URL
  {
    let save = directory.file("save.json")
    let created = try await rpg(["new", "--name", "Ada", "--seed", "7", "--save", save.path])
    #expect(created.succeeded, "\(created.summary)")
    var document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: save)) as? [String: Any]
    )
    func replace(_ object: [String: Any], _ keys: ArraySlice<String>) -> [String: Any] {
      var object = object
      guard let key = keys.first else { return object }
      if keys.count == 1 {
        object[key] = "@@number@@"
      } else {
        object[key] = replace(object[key] as? [String: Any] ?? [:], keys.dropFirst())
      }
      return object
    }
    document = replace(document, ["game"] + path)
    let text = String(
      decoding: try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]),
      as: UTF8.self
    )
    #expect(text.contains("\"@@number@@\""))
    try Data(text.replacingOccurrences(of: "\"@@number@@\"", with: literal).utf8).write(to: save)
    return save
  }

  /// The fields and numbers a save is refused for: each at `Int.max`, below its range, and an
  /// experience that would have levelled up a billion times.
  static let outOfRange: [([String], String)] = [
    (["player", "level"], "9223372036854775807"),
    (["player", "level"], "0"),
    (["step"], "9223372036854775807"),
    (["step"], "-1"),
    (["player", "xp"], "9223372036854775807"),
    (["player", "xp"], "-1"),
    (["player", "xp"], "4e18"),
    (["player", "inventory", "gold"], "9223372036854775807"),
    (["player", "inventory", "gold"], "-1"),
    (["player", "hp"], "21"),
    (["defeated"], "-5"),
  ]

  /// Proves that a save with a number the rules cannot reach is corrupt data for `show` and for
  /// `play`: 65 at once with one line naming the field, and the file byte for byte as it was
  /// (it used to trap on overflow, or level up a billion times).
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the tests"),
    arguments: outOfRange
  )
  func aSaveNumberOutOfRangeIsCorrupt(_ path: [String], _ literal: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = try await Self.save(setting: path, to: literal, in: directory)
    let before = try Data(contentsOf: save)
    let field = "`" + (["game"] + path).joined(separator: ".") + "`"
    for (arguments, input) in [
      (["show"], ""), (["play"], "explore\nattack\nattack\nattack\n"),
      (["play", "--script", Self.demo.path], ""),
    ] {
      let run = try await Self.rpg(arguments + ["--save", save.path], input: .text(input))
      #expect(!run.signalled && !run.timedOut, "rpg \(arguments): \(run.summary)")
      #expect(run.status == 65, "rpg \(arguments) with \(field) = \(literal): \(run.summary)")
      #expect(run.errorText.hasPrefix("rpg: cannot load the game from"), "\(run.errorText)")
      #expect(run.errorText.contains(field), "\(run.errorText)")
      #expect(run.errorText.filter { $0 == "\n" }.count == 1, "\(run.errorText)")
      #expect(try Data(contentsOf: save) == before, "rpg \(arguments) changed the save")
    }
  }

  /// Proves that a game at the top of every range plays on without overflowing: a level-10000
  /// player with the most experience and gold wins a fight and stays at those numbers.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the tests"))
  func aGameAtTheTopOfItsRangesPlaysOn() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json")
    let created = try await Self.rpg(["new", "--name", "Ada", "--seed", "7", "--save", save.path])
    #expect(created.succeeded, "\(created.summary)")
    var document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: save)) as? [String: Any]
    )
    var game = try #require(document["game"] as? [String: Any])
    game["player"] =
      [
        "name": "Ada", "level": 10_000, "xp": 1_000_000_000_000_000, "hp": 50_015,
        "maxHP": 50_015, "attack": 20_003,
        "inventory": ["potions": 1_000_000_000_000_000, "gold": 1_000_000_000_000_000],
      ] as [String: Any]
    // Near the top, not at it: a step that could not grow would not tell the game changed.
    game["step"] = 999_999_999_999_000
    document["game"] = game
    try JSONSerialization.data(withJSONObject: document).write(to: save)

    let played = try await Self.rpg(
      ["play", "--save", save.path],
      input: .text("explore\nattack\nsave\n")
    )
    #expect(played.succeeded, "\(played.summary)")
    let shown = try await Self.rpg(["show", "--save", save.path])
    #expect(shown.succeeded, "\(shown.summary)")
    #expect(
      shown.outputText.hasPrefix(
        "Ada: level 10000, XP 1000000000000000/100000, HP 50015/50015, attack 20003, "
          + "potions 1000000000000000, gold 1000000000000000"
      ),
      "\(shown.outputText)"
    )
    #expect(shown.outputText.contains("(1 defeated so far)"), "\(shown.outputText)")
  }

  /// Proves that a script with Windows line endings (`\r\n`) plays exactly as the same script
  /// with `\n`: the same output, status and save.
  @Test(.enabled(if: executable != nil, "the rpg executable was not found next to the tests"))
  func aScriptWithCRLFLineEndingsPlaysAsWithLF() async throws {
    let text = try String(contentsOf: Self.demo, encoding: .utf8)
    #expect(!text.contains("\r"))
    var runs: [(ChildRun, Data)] = []
    for script in [text, text.replacingOccurrences(of: "\n", with: "\r\n")] {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try Data(script.utf8).write(to: directory.file("demo.txt"))
      let run = try await Self.rpg(
        ["play", "--script", "demo.txt", "--save", "save.json"],
        in: directory.url
      )
      runs.append((run, try Data(contentsOf: directory.file("save.json"))))
    }
    let (lf, lfSave) = runs[0]
    let (crlf, crlfSave) = runs[1]
    #expect(lf.succeeded, "\(lf.summary)")
    #expect(crlf.succeeded, "\(crlf.summary)")
    #expect(lf.outputText.contains("Ada reaches level 3!"), "\(lf.outputText)")
    #expect(crlf.outputText == lf.outputText)
    #expect(crlf.errorText == lf.errorText)
    #expect(crlfSave == lfSave)
  }

  /// Proves that `--version` and `--help` into a closed standard output (`>&-`) or a pipe nobody
  /// reads (`| head -0`) end with 74, as other output does, not 0.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the tests"),
    arguments: [["--version"], ["--help"], ["help", "play"]]
  )
  func helpAndVersionIntoAClosedOutputEndWith74(_ arguments: [String]) async throws {
    let open = try await Self.rpg(arguments)
    #expect(open.succeeded, "\(open.summary)")
    #expect(!open.outputText.isEmpty)
    let closed = try await Self.rpg(arguments, shell: #"exec "$@" >&-"#)
    #expect(!closed.signalled && closed.status == 74, "rpg \(arguments) >&-: \(closed.summary)")
    #expect(closed.errors.isEmpty, "\(closed.errorText)")
    let piped = try await Self.rpg(arguments, output: .closedPipe)
    #expect(!piped.signalled && piped.status == 74, "rpg \(arguments) | head -0: \(piped.summary)")
    #expect(piped.errors.isEmpty, "\(piped.errorText)")
  }
}
