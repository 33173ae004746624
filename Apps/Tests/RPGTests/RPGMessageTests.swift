import AppSupport
import AppTestSupport
import Foundation
import RPGCore
import Testing

/// What `rpg` tells the player, word for word: each message a sentence that says what happened
/// and what to do, with the exit status that goes with it, and the save left as it was.
@Suite struct RPGMessageTests {
  static let executable = builtProduct(named: "rpg")

  /// Runs `rpg`; killed after 60 seconds.
  static func rpg(_ arguments: [String], input: ChildInput = .text("")) async throws -> ChildRun {
    let executable = try #require(executable, "build the rpg product first")
    let run = try await runChild(executable, arguments, input: input)
    #expect(!run.timedOut && !run.signalled, "rpg \(arguments): \(run.summary)")
    return run
  }

  /// Proves that a save that cannot be used is explained in one line that says what to do —
  /// never "save with overwrite" — with its own exit status (65 for a corrupt save or one from a
  /// newer version, 66 for none), by `show`, `play` and a script on every architecture, and
  /// that the file is left byte for byte as it was.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: Architecture.allCases
  )
  func unusableSavesAreExplained(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json")
    let path = save.path
    let newer = #"{"version": 9, "game": {}}"#
    let corrupt = "Ada was here\n"
    let saves: [(content: String?, status: Int32, message: String)] = [
      (
        corrupt, 65,
        "rpg: cannot load the game from \(path): the save file is corrupt (it is not valid "
          + "JSON). The file was left as it is; `rpg new --force` starts a new game in its place\n"
      ),
      (
        newer, 65,
        "rpg: cannot load the game from \(path): the save file is from a newer version of the "
          + "game (format 9; this version reads format 1 at most). The file was left as it is; "
          + "`rpg new --force` starts a new game in its place\n"
      ),
      (
        nil, 66,
        "rpg: there is no saved game at \(path); start one with `rpg new --name NAME`\n"
      ),
    ]
    let options = ["--save", path, "--architecture", architecture.rawValue]
    let script = directory.file("game.txt")
    try Data("explore\n".utf8).write(to: script)
    for (content, status, message) in saves {
      if let content {
        try Data(content.utf8).write(to: save)
      } else {
        try? FileManager.default.removeItem(at: save)
      }
      var runs = [
        ("show", try await Self.rpg(["show"] + options)),
        ("script", try await Self.rpg(["play", "--script", script.path] + options)),
      ]
      if content != nil {
        runs.append(("play", try await Self.rpg(["play"] + options, input: .text("explore\n"))))
      }
      for (command, run) in runs {
        #expect(run.status == status, "\(command): \(run.summary)")
        #expect(run.errorText == message, "\(command)")
        #expect(!run.errorText.contains("overwrite"))
        if let content {
          #expect(try Data(contentsOf: save) == Data(content.utf8), "\(command) changed the save")
        } else {
          #expect(!FileManager.default.fileExists(atPath: path), "\(command) made a save")
        }
      }
    }
  }

  /// Proves that `new` over a saved game says how to go on with it or replace it (status 1, the
  /// save unchanged), that `--force` replaces it, and that a game's first lines read as
  /// sentences, ending with where it was saved.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: Architecture.allCases
  )
  func aNewGameSaysWhatItDid(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json")
    let options = ["--save", save.path, "--architecture", architecture.rawValue]
    let created = try await Self.rpg(["new", "--name", "Ada", "--seed", "42"] + options)
    #expect(created.status == 0, "\(created.summary)")
    #expect(
      created.outputText
        == """
        Ada sets out on an adventure (seed 42).
        Saving…
        Game saved.
        Ada: level 1, XP 0/10, HP 20/20, attack 5, potions 2, gold 0
        No monster in sight (0 defeated so far).

        """
    )
    let before = try Data(contentsOf: save)

    let again = try await Self.rpg(["new", "--name", "Bo"] + options)
    #expect(again.status == 1, "\(again.summary)")
    #expect(
      again.errorText
        == "rpg: there is already a saved game at \(save.path): continue it with `rpg play`, or "
        + "replace it with `rpg new --force`\n"
    )
    #expect(again.output.isEmpty)
    #expect(try Data(contentsOf: save) == before)

    let forced = try await Self.rpg(["new", "--name", "Bo", "--force"] + options)
    #expect(forced.status == 0, "\(forced.summary)")
    #expect(try Data(contentsOf: save) != before)

    let played = try await Self.rpg(["play"] + options, input: .text("explore\nattack\nattack\n"))
    #expect(played.status == 0, "\(played.summary)")
    #expect(played.outputText.hasPrefix("Cascade RPG. Type 'help' to see the commands.\n"))
    #expect(played.outputText.contains("The Goblin is defeated! Bo now has 6 XP and 3 gold.\n"))
    #expect(played.outputText.hasSuffix("> \nGame saved to \(save.path).\n"))
  }

  /// Proves that lines the game cannot read say what is wrong and how the command is written,
  /// on standard error, while the session goes on; and that a script with such a line is
  /// refused whole (status 65, nothing played, the save untouched), naming the file and line.
  @Test(
    .enabled(if: executable != nil, "the rpg executable was not found next to the test bundle"),
    arguments: Architecture.allCases
  )
  func badLinesSayHowTheCommandIsWritten(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json")
    let options = ["--save", save.path, "--architecture", architecture.rawValue]
    let typed = try await Self.rpg(
      ["play"] + options,
      input: .text("dance\nnew\nnew Ada 1 2\nattack now\nsave please\nnew Ada\n")
    )
    #expect(typed.status == 0, "\(typed.summary)")
    #expect(
      typed.errorText == """
        rpg: unknown command 'dance' (type 'help' to see the commands)
        rpg: 'new' needs a player's name (usage: new NAME [SEED])
        rpg: 'new' takes a name and a seed only, but '2' was given (usage: new NAME [SEED])
        rpg: 'attack' takes no arguments, but 'now' was given (usage: attack)
        rpg: 'save' takes only --force, but 'please' was given (usage: save [--force])

        """
    )
    let before = try Data(contentsOf: save)

    let script = directory.file("game.txt")
    try Data("explore\nattack\njump high\n".utf8).write(to: script)
    let scripted = try await Self.rpg(["play", "--script", script.path] + options)
    #expect(scripted.status == 65, "\(scripted.summary)")
    #expect(
      scripted.errorText
        == "rpg: \(script.path): line 3: unknown command 'jump' (type 'help' to see the "
        + "commands); nothing was played\n"
    )
    #expect(scripted.output.isEmpty)
    #expect(try Data(contentsOf: save) == before)
  }

  /// Proves that the game's own messages read as sentences: a save refused over an unreadable
  /// file says how to replace it, a failed load says why, a defeat names the monster, fleeing
  /// says from what, and a finished game counts its monsters in good English.
  @Test func theGameSpeaksInSentences() {
    var state = GameState()
    state.apply(.saveFailed(.corrupt("it is not valid JSON")))
    #expect(
      state.message
        == "Could not save: the save file is corrupt (it is not valid JSON). It was left as it "
        + "is; type `save --force` to replace it."
    )
    state.apply(.saveFailed(.io("disk full")))
    #expect(
      state.message == "Could not save: the save file could not be read or written: disk full."
    )
    state.apply(.loadFailed(.missing))
    #expect(state.message == "Could not load: there is no saved game.")

    var game = Game(name: "Ada", seed: 1)
    game.monster = Monster.roster[1]
    let after = { (event: GameEvent) -> Game in
      var next = game
      next.apply(event)
      return next
    }
    #expect(
      Rules.narrate(.monsterDefeated, in: after(.monsterDefeated), before: game)
        == "The Goblin is defeated! Ada now has 6 XP and 3 gold."
    )
    #expect(
      Rules.narrate(.fled, in: after(.fled), before: game) == "Ada gets away from the Goblin."
    )

    var over = GameState()
    var dead = Game(name: "Ada", seed: 1)
    dead.player.hp = 0
    dead.defeated = 1
    over.apply(.loaded(dead))
    #expect(over.summaryLines.last == "Game over: 1 monster defeated.")
  }
}
