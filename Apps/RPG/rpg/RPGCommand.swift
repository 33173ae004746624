import AppSupport
import ArgumentParser
import Foundation
import RPGCore

/// `rpg`: the Cascade RPG on the command line.
@main
struct RPGCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rpg",
    abstract: "A small turn-based RPG, built on the Store, the Reactor or the Feedback loop.",
    discussion: """
      Start a game with `rpg new --name Ada --seed 42`, play it with `rpg play` (or \
      `rpg play --script FILE`), and look at it with `rpg show`. The game is saved to \
      $XDG_DATA_HOME/cascade/rpg/save.json (~/.local/share/… by default) unless --save says \
      otherwise.
      """,
    subcommands: [New.self, Play.self, Show.self]
  )
}

/// The options every subcommand takes.
struct GameOptions: ParsableArguments {
  @Option(
    help: "The architecture: store, reactor or feedback (default: store).",
    transform: { text in
      guard let architecture = Architecture(rawValue: text.lowercased()) else {
        throw ValidationError(
          "unknown architecture '\(text)' (expected store, reactor or feedback)"
        )
      }
      return architecture
    }
  )
  var architecture: Architecture = .store

  @Flag(help: "Print machine-readable JSON instead of text.")
  var json = false

  @Option(name: .customLong("save"), help: "The save file (default: the per-user data directory).")
  var savePath: String?

  /// The save file.
  var saveURL: URL {
    savePath.map { URL(fileURLWithPath: $0) } ?? GameFile.defaultURL()
  }

  func validate() throws {
    if let savePath, savePath.isEmpty { throw ValidationError("--save needs a path") }
  }
}

/// `rpg new`: starts a game and saves it.
struct New: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Start a new game and save it.")

  @OptionGroup var options: GameOptions

  @Option(help: "The player's name.")
  var name: String

  @Option(help: "The seed that makes the game reproducible.")
  var seed: UInt64 = GameCommand.defaultSeed

  @Flag(help: "Replace the save file if there is one.")
  var force = false

  func validate() throws {
    if name.trimmingCharacters(in: .whitespaces).isEmpty {
      throw ValidationError("--name must not be empty")
    }
  }

  func run() async throws {
    let session = Session(options: options)
    if GameFile(url: options.saveURL).exists && !force {
      throw Failure(
        "a saved game exists at \(options.saveURL.path); use --force to replace it, "
          + "or `rpg play` to go on with it"
      )
    }
    try await session.perform(.newGame(name: name, seed: seed))
    try await session.saveOrFail(overwrite: force)
    session.printTurn(command: "new")
  }
}

/// `rpg show`: prints the saved game.
struct Show: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Show the saved game.")

  @OptionGroup var options: GameOptions

  func run() async throws {
    let session = Session(options: options)
    try await session.loadOrFail()
    session.printState()
  }
}

/// `rpg play`: the turn loop, interactive or from a script.
struct Play: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play: read commands from the terminal (or a script) and show the state after each.",
    discussion: GameCommand.helpText
  )

  @OptionGroup var options: GameOptions

  @Option(help: "Read the commands from this file instead of the terminal.")
  var script: String?

  func run() async throws {
    let session = Session(options: options)
    if let script {
      try await runScript(at: script, session: session)
    } else {
      try await runInteractive(session: session) { readLine() }
    }
    try await session.saveAtEnd()
  }

  private func runScript(at path: String, session: Session) async throws {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw Failure("cannot read the script \(path): \(error.localizedDescription)")
    }
    let commands: [GameCommand]
    do {
      commands = try GameCommand.parseScript(text)
    } catch {
      throw Failure("\(path): \(error)")
    }
    let startsNewGame: Bool
    if case .intent(.newGame) = commands.first {
      startsNewGame = true
    } else {
      startsNewGame = false
    }
    if startsNewGame {
      try await session.loadIfPresent()
    } else {
      try await session.loadOrFail()
    }
    for command in commands {
      if try await session.execute(command) == .quit { break }
    }
  }

  /// The interactive loop: reads `nextLine` until it returns `nil` (end of input) or `quit`;
  /// a bad line is reported on standard error and the loop goes on.
  func runInteractive(session: Session, nextLine: () -> String?) async throws {
    try await session.loadIfPresent()
    if !options.json {
      print("Cascade RPG (\(options.architecture)). Type 'help' for the commands.")
      print(session.game.currentState.summary)
    }
    while true {
      if !options.json {
        print("> ", terminator: "")
        fflush(nil)
      }
      guard let line = nextLine() else {
        if !options.json { print() }
        break
      }
      do {
        guard let command = try GameCommand.parse(line) else { continue }
        if try await session.execute(command) == .quit { break }
      } catch let error as GameCommandError {
        printError(error.description)
      }
    }
  }
}

/// A failure the command reports on standard error before exiting with status 1.
struct Failure: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}

/// Writes `message` to standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("rpg: \(message)\n".utf8))
}

extension Failure: LocalizedError {
  var errorDescription: String? { description }
}
