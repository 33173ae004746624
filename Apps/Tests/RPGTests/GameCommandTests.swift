import AppSupport
import RPGCore
import Testing

@Suite struct GameCommandTests {
  @Test(arguments: [
    ("attack", GameCommand.intent(.attack)),
    ("  A  ", .intent(.attack)),
    ("explore", .intent(.explore)),
    ("e", .intent(.explore)),
    ("potion", .intent(.drinkPotion)),
    ("rest", .intent(.rest)),
    ("FLEE", .intent(.flee)),
    ("save", .intent(.save(overwrite: false))),
    ("save --force", .intent(.save(overwrite: true))),
    ("load", .intent(.load)),
    ("new Ada", .intent(.newGame(name: "Ada", seed: GameCommand.defaultSeed))),
    ("new Grace 7", .intent(.newGame(name: "Grace", seed: 7))),
    ("show", .show),
    ("?", .help),
    ("quit", .quit),
  ])
  func parsesEachCommand(_ line: String, _ expected: GameCommand) throws {
    #expect(try GameCommand.parse(line) == expected)
  }

  @Test(arguments: ["", "   ", "\t", "# a comment", "  #attack"])
  func blankLinesAndCommentsAreNothing(_ line: String) throws {
    #expect(try GameCommand.parse(line) == nil)
  }

  @Test(arguments: [
    ("dance", GameCommandError.unknownCommand("dance")),
    ("new", .missingArgument(command: "new", argument: "a player's name")),
    (
      "new Ada x",
      .badArgument(command: "new", argument: "x", expected: GameCommand.seedExpectation)
    ),
    (
      "new Ada -1",
      .badArgument(command: "new", argument: "-1", expected: GameCommand.seedExpectation)
    ),
    ("new Ada 1 2", .unexpectedArguments(command: "new", arguments: ["2"])),
    ("attack now", .unexpectedArguments(command: "attack", arguments: ["now"])),
    ("save please", .unexpectedArguments(command: "save", arguments: ["please"])),
  ])
  func badLinesSayWhatIsWrong(_ line: String, _ expected: GameCommandError) {
    #expect(throws: expected) { try GameCommand.parse(line) }
    #expect(!expected.description.isEmpty)
  }

  @Test func aScriptWithABadLineIsRejectedWhole() throws {
    #expect(throws: GameScriptError(line: 3, text: "jump", error: .unknownCommand("jump"))) {
      try GameCommand.parseScript("new Ada 1\nexplore\njump\nattack\n")
    }
    #expect(
      try GameCommand.parseScript("# demo\nnew Ada 1\n\nexplore\n")
        == [.intent(.newGame(name: "Ada", seed: 1)), .intent(.explore)]
    )
  }

  /// Random lines (command words, numbers, junk) never crash the parser, and whatever it
  /// accepts it renders back to the same command.
  @Test func fuzzedLinesParseOrFailCleanly() throws {
    let words = [
      "new", "attack", "a", "explore", "save", "--force", "load", "flee", "rest", "potion",
      "show", "help", "quit", "Ada", "42", "-3", "18446744073709551616", "#", "é", "💥", "\t",
    ]
    var dice = SplitMix64(seed: 2_026)
    var accepted = 0
    for _ in 0..<5_000 {
      let count = dice.roll(0...4)
      var parts: [String] = []
      for _ in 0..<count {
        if dice.roll(0...5) == 0 {
          let scalar = Unicode.Scalar(UInt32(dice.roll(0x20...0x7E))).map(String.init) ?? "?"
          parts.append(scalar)
        } else {
          parts.append(words[dice.roll(0...(words.count - 1))])
        }
      }
      let line = parts.joined(separator: dice.roll(0...1) == 0 ? " " : "  ")
      do {
        guard let command = try GameCommand.parse(line) else { continue }
        accepted += 1
        #expect(try GameCommand.parse(render(command)) == command, "\(line)")
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
    #expect(accepted > 100)
  }

  private func render(_ command: GameCommand) -> String {
    switch command {
    case .show: "show"
    case .help: "help"
    case .quit: "quit"
    case .intent(.newGame(let name, let seed)): "new \(name) \(seed)"
    case .intent(.explore): "explore"
    case .intent(.attack): "attack"
    case .intent(.drinkPotion): "potion"
    case .intent(.rest): "rest"
    case .intent(.flee): "flee"
    case .intent(.save(let overwrite)): overwrite ? "save --force" : "save"
    case .intent(.load): "load"
    }
  }
}
