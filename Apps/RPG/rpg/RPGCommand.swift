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
      otherwise. `rpg play --record FILE` records a session and `rpg play --replay FILE` plays \
      it again, printing the same output (see `rpg help play`).
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
    discussion: GameCommand.helpText + "\n\n" + RecordingOptions.help
  )

  @OptionGroup var options: GameOptions

  @Option(help: "Read the commands from this file instead of the terminal.")
  var script: String?

  @OptionGroup var recording: RecordingOptions

  func validate() throws {
    if recording.replay != nil, script != nil {
      throw ValidationError(
        "--script and --replay exclude each other: a replay reads its commands from the recording"
      )
    }
  }

  func run() async throws {
    let session = try Session(options: options, recording: recording, command: "play")
    try await reportingReplayErrors {
      let script = self.script
      let source = try await session.app.fact("script") {
        script.map(Self.read(script:)) ?? .absent
      }
      switch source {
      case .text(let text):
        try await runScript(text, path: script ?? "the recorded script", session: session)
      case .failure(let message):
        throw Failure(message)
      case .absent:
        try await runInteractive(session: session) { try await session.app.line { readLine() } }
      default:
        throw session.app.unexpected(source, for: "script")
      }
      try await session.saveAtEnd()
    }
    try await session.finish()
  }

  /// The text of the script at `path`, or why it cannot be read.
  static func read(script path: String) -> SessionFact.Value {
    do {
      return .text(try String(contentsOfFile: path, encoding: .utf8))
    } catch {
      return .failure("cannot read the script \(path): \(error.localizedDescription)")
    }
  }

  private func runScript(_ text: String, path: String, session: Session) async throws {
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
  func runInteractive(session: Session, nextLine: () async throws -> String?) async throws {
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
      guard let line = try await nextLine() else {
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

/// `--record FILE` and `--replay FILE`: a session recorded to a file, or played again from one.
struct RecordingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Record this session to FILE (created or replaced) while it plays as usual.",
      valueName: "FILE"
    )
  )
  var record: String?

  @Option(
    help: ArgumentHelp(
      "Play the session recorded in FILE again instead of reading commands: the same output, "
        + "without reading or writing the save file.",
      valueName: "FILE"
    )
  )
  var replay: String?

  /// The exit status when the recording cannot be created, or records of the session could not
  /// be written.
  static let cannotRecord = ExitStatus.ioError.rawValue

  /// What `--help` says about recordings.
  static let help = """
    Recording: `--record FILE` records the session (the commands read, the game's inputs) to \
    FILE, a JSON Lines file, while it plays as usual. `--replay FILE` plays it again: the \
    commands, the game's states and the outcome of every save and load come from FILE, so it \
    needs no script or terminal input and neither reads nor writes the save file, and it prints \
    what the recorded session printed. Replay with the command and options that recorded it \
    (the same --architecture, --json and --save): a recording made on one architecture is \
    replayed on that architecture only.
    Exit status: 0 on success; 1 when the game refuses (as without a recording); 64 for a bad \
    command line (such as --record with --replay); 65 when FILE is damaged (a truncated or \
    corrupt line, named), of a newer format version, of another app, architecture or command, \
    or does not match this run; 66 when FILE does not exist; 74 when the recording cannot \
    be created or written.
    """

  func validate() throws {
    if record != nil, replay != nil {
      throw ValidationError("--record and --replay exclude each other")
    }
    if record?.isEmpty == true { throw ValidationError("--record needs a path") }
    if replay?.isEmpty == true { throw ValidationError("--replay needs a path") }
  }

  /// The session of `command`: replayed from `--replay`, or live and recorded to `--record`.
  ///
  /// - Throws: `ExitCode` after printing why, when the recording cannot be replayed (65, 66) or
  ///   created (74).
  func session(
    options: GameOptions,
    log: @escaping @Sendable (String) -> Void,
    command: String
  ) throws -> AppSession<GameIntent, GameState> {
    if let replay {
      do {
        return try replayGameSession(
          options.architecture,
          saveFile: options.saveURL,
          log: log,
          contentsOf: URL(fileURLWithPath: replay),
          command: command
        )
      } catch {
        printError(error.description)
        throw ExitCode(error.exitCode)
      }
    }
    let session = makeGameSession(
      options.architecture,
      saveFile: options.saveURL,
      log: log,
      command: command,
      recordingTo: record.map { URL(fileURLWithPath: $0) }
    )
    if let problem = session.recordingProblem {
      printError("cannot record the session: \(problem)")
      throw ExitCode(Self.cannotRecord)
    }
    return session
  }
}

/// Runs `body`; a recording that does not match the run is reported on standard error, and ends
/// the command with its exit status.
@discardableResult
func reportingReplayErrors<T>(_ body: () async throws -> T) async throws -> T {
  do {
    return try await body()
  } catch let error as SessionReplayError {
    printError(error.description)
    throw ExitCode(error.exitCode)
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
