import AppSupport
import ArgumentParser
import CascadeStreams
import CommandLineSupport
import Foundation
import InspectorLink
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
      otherwise. `--record FILE` records a command's session and `--replay FILE` plays it \
      again, printing the same output (see `rpg help play`).
      """ + "\n\n" + RPGExit.help,
    version: CascadeVersion.current,
    subcommands: [New.self, Play.self, Show.self]
  )

  /// Runs the command line: refuses arguments that are not UTF-8 before parsing them, ends
  /// quietly with status 74 when standard output is closed, and reports a ``Failure`` with its
  /// exit status.
  static func main() async {
    StandardOutput.prepare()
    if let index = StrictInput.firstInvalidArgument() {
      printError("\(InvalidUTF8(where: describeArgument(at: index))); nothing was done")
      terminate(.dataError)
    }
    do {
      var command = try parseAsRoot()
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
      StandardOutput.flush()
    } catch let failure as Failure {
      StandardOutput.flush()
      printError(failure.description)
      terminate(failure.status)
    } catch {
      StandardOutput.flush()
      Self.exitPrinting(error)
    }
  }

  /// Names the command-line argument at `index` (1 for the first after the program's name) for
  /// a message: `the value of --name (argument 3)`.
  static func describeArgument(at index: Int) -> String {
    let arguments = CommandLine.arguments
    if index > 1, index < arguments.count {
      let option = arguments[index - 1]
      if option.hasPrefix("-"), !option.contains("=") {
        return "the value of \(option) (argument \(index))"
      }
    }
    return "argument \(index)"
  }
}

/// What `rpg`'s exit codes mean, for every `--help`.
enum RPGExit {
  /// The list of ``ExitStatus`` codes, then what leads to each in `rpg`.
  static let help =
    ExitStatus.helpText + "\n\n"
      + """
      In rpg: 1 when `rpg new` would replace a saved game without --force; 64 for a bad \
      command line; 65 for a corrupt save or one from a newer version, a script line that is \
      not a command, text (an argument, a script, a typed line) that is not UTF-8, or a \
      recording that is damaged or does not match the run; 66 when there is no saved game, or \
      a script or recording does not exist or cannot be read; 74 when the game or a recording \
      cannot be written, or standard output is closed.
      """
}

/// The options every subcommand takes.
struct GameOptions: ParsableArguments {
  @OptionGroup var architectureOption: ArchitectureOption

  @Flag(help: "Print machine-readable JSON instead of text.")
  var json = false

  @Option(name: .customLong("save"), help: "The save file (default: the per-user data directory).")
  var savePath: String?

  /// The architecture the game runs on.
  var architecture: Architecture { architectureOption.architecture }

  /// The save file.
  var saveURL: URL {
    savePath.map { URL(fileURLWithPath: $0) } ?? GameFile.defaultURL()
  }

  /// The save file's path, as messages show it: as given with --save (so that the same command
  /// prints the same text wherever it runs), or the default one in full.
  var savePathText: String { savePath ?? saveURL.path }

  func validate() throws {
    if let savePath, savePath.isEmpty { throw ValidationError("--save needs a path") }
  }
}

/// `rpg new`: starts a game and saves it.
struct New: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Start a new game and save it.",
    discussion: RecordingOptions.help + "\n\n" + RPGExit.help
  )

  @OptionGroup var options: GameOptions

  @Option(help: "The player's name.")
  var name: String

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The seed that makes the game reproducible: a whole number from 0 to \(UInt64.max) "
        + "(default: \(GameCommand.defaultSeed)).",
      valueName: "seed"
    )
  )
  var seed: String?

  @Flag(help: "Replace the save file if there is one.")
  var force = false

  @OptionGroup var recording: RecordingOptions

  func validate() throws {
    if name.trimmingCharacters(in: .whitespaces).isEmpty {
      throw ValidationError("--name must not be empty")
    }
    _ = try Self.seed(seed)
  }

  /// The seed `text` names, or the default one.
  ///
  /// - Throws: A `ValidationError` (status 64) for anything but a whole number from 0 to
  ///   `UInt64.max`.
  static func seed(_ text: String?) throws(ValidationError) -> UInt64 {
    guard let text else { return GameCommand.defaultSeed }
    guard let seed = UInt64(text) else {
      throw ValidationError(
        "--seed must be a whole number from 0 to \(UInt64.max), not '\(DisplayText.escaped(text))'"
      )
    }
    return seed
  }

  func run() async throws {
    let session = try Session(options: options, recording: recording, command: "new")
    try await reportingReplayErrors {
      let saveURL = options.saveURL
      let exists = try await session.app.flag("saveExists") { GameFile(url: saveURL).exists }
      if exists && !force {
        throw Failure(
          "there is already a saved game at \(options.savePathText): continue it with "
            + "`rpg play`, or replace it with `rpg new --force`",
          status: .failure
        )
      }
      try await session.perform(.newGame(name: name, seed: Self.seed(seed)))
      try await session.saveOrFail(overwrite: force)
      session.printTurn(command: "new")
    }
    try await session.finish()
  }
}

/// `rpg show`: prints the saved game.
struct Show: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show the saved game.",
    discussion: RecordingOptions.help + "\n\n" + RPGExit.help
  )

  @OptionGroup var options: GameOptions

  @OptionGroup var recording: RecordingOptions

  func run() async throws {
    let session = try Session(options: options, recording: recording, command: "show")
    try await reportingReplayErrors {
      try await session.loadOrFail()
      session.printState()
    }
    try await session.finish()
  }
}

/// `rpg play`: the turn loop, interactive or from a script.
struct Play: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play: read commands from the terminal (or a script) and show the state after each.",
    discussion: GameCommand.helpText + "\n\n" + RecordingOptions.help + "\n\n" + """
      A script is refused whole, before anything is played, when a line is not a command or \
      not UTF-8. Typed lines that are not commands are reported and skipped; a typed line that \
      is not UTF-8 ends the session without saving (status 65).
      """ + "\n\n" + RPGExit.help
  )

  @OptionGroup var options: GameOptions

  @Option(help: "Read the commands from this file instead of the terminal.")
  var script: String?

  @OptionGroup var recording: RecordingOptions

  @OptionGroup var inspection: InspectOptions

  @Option(
    help: ArgumentHelp(
      """
      Keep the game's last inputs and states in memory (4 MiB) and write them to FILE, as a \
      recording with states that `cascade-inspect FILE` opens, if the process traps, crashes \
      or is ended by SIGTERM or SIGINT.
      """,
      valueName: "FILE"
    )
  )
  var flightRecorder: String?

  /// Traps after this many commands: a crash on purpose, to see the flight recorder at work.
  @Option(help: .hidden)
  var crashAfter: Int?

  func validate() throws {
    if script?.isEmpty == true { throw ValidationError("--script needs a path") }
    if flightRecorder?.isEmpty == true { throw ValidationError("--flight-recorder needs a path") }
    if flightRecorder != nil, recording.replay != nil {
      throw ValidationError("--flight-recorder keeps a live session: it excludes --replay")
    }
    if let crashAfter, crashAfter < 0 { throw ValidationError("--crash-after needs a count ≥ 0") }
    if inspection.inspect, recording.replay != nil {
      throw ValidationError("--inspect shows a live session: it excludes --replay")
    }
    if recording.replay != nil, script != nil {
      throw ValidationError(
        "--script and --replay exclude each other: a replay reads its commands from the recording"
      )
    }
  }

  func run() async throws {
    let inspector = inspection.makeInspector(
      app: "rpg",
      architecture: options.architecture,
      command: "play"
    )
    let flight = try flightRecorder.map { path in
      do {
        return try FlightObserver(file: URL(fileURLWithPath: path))
      } catch {
        printError("cannot keep a flight recording: \(error)")
        throw ExitCode(ExitStatus.ioError.rawValue)
      }
    }
    let session = try Session(
      options: options,
      recording: recording,
      command: "play",
      inspector: inspector,
      flightRecorder: flight
    )
    try await inspection.start(inspector, app: "rpg")
    try await reportingReplayErrors {
      let script = self.script
      let source = try await session.app.fact("script") {
        script.map(Self.read(script:)) ?? .absent
      }
      let path = script ?? "the recorded script"
      switch source {
      case .data(let data):
        try await runScript(try Self.decode(script: data, path: path), path: path, session: session)
      case .text(let text):
        try await runScript(text, path: path, session: session)
      case .failure(let message):
        throw Failure(message, status: .noInput)
      case .absent:
        try await runInteractive(session: session, nextLine: Self.lineReader(session: session))
      default:
        throw session.app.unexpected(source, for: "script")
      }
      try await session.saveAtEnd()
    }
    try await session.finish()
  }

  /// The bytes of the script at `path`, or why it cannot be read.
  static func read(script path: String) -> SessionFact.Value {
    do {
      return .data(try SafeFile.read(path))
    } catch {
      return .failure("cannot read the script \(path): \(FileProblem(error, path: path))")
    }
  }

  /// The text of a script.
  ///
  /// - Throws: ``Failure`` (status 65) naming the first line that is not UTF-8.
  static func decode(script data: Data, path: String) throws -> String {
    if let text = StrictInput.decode(data) { return text }
    for (index, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
    where StrictInput.decode(line) == nil {
      throw Failure(
        "\(path): line \(index + 1) is not valid UTF-8; nothing was played",
        status: .dataError
      )
    }
    throw Failure("\(path) is not valid UTF-8; nothing was played", status: .dataError)
  }

  /// Reads the typed lines through the session (recorded, or replayed): a line that is not
  /// UTF-8 is read as a failure, which ends the session.
  static func lineReader(session: Session) -> () async throws -> String? {
    let reader = TypedLines(session: session)
    return { try await reader.next() }
  }

  private func runScript(_ text: String, path: String, session: Session) async throws {
    let commands: [GameCommand]
    do {
      commands = try GameCommand.parseScript(text)
    } catch {
      throw Failure("\(path): \(error); nothing was played", status: .dataError)
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
    for (done, command) in commands.enumerated() {
      if done == crashAfter { fatalError("rpg: crashing on purpose after \(done) commands") }
      if try await session.execute(command) == .quit { break }
    }
  }

  /// The interactive loop: reads `nextLine` until it returns `nil` (end of input) or `quit`;
  /// a line that is not a command is reported on standard error and the loop goes on.
  func runInteractive(session: Session, nextLine: () async throws -> String?) async throws {
    try await session.loadIfPresent()
    if !options.json {
      // The same words on every architecture: a game prints the same text on each.
      session.say("Cascade RPG. Type 'help' to see the commands.")
      session.show(session.game.currentState.summaryLines)
    }
    while true {
      if !options.json { StandardOutput.write("> ") }
      let line: String?
      do {
        line = try await nextLine()
      } catch {
        // The prompt's line ends before the error is told.
        if !options.json { StandardOutput.print("") }
        throw error
      }
      guard let line else {
        if !options.json { StandardOutput.print("") }
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

/// The lines typed in `rpg play`, read through the session, numbered for messages.
final class TypedLines {
  private let session: Session
  private var count = 0

  init(session: Session) {
    self.session = session
  }

  /// The next line, or `nil` at the end of the input.
  ///
  /// - Throws: ``Failure`` (status 65) for a line that is not UTF-8.
  func next() async throws -> String? {
    count += 1
    let number = count
    let value = try await session.app.fact("line") {
      do throws(InvalidUTF8) {
        return try StrictInput.readLine().map(SessionFact.Value.text) ?? .absent
      } catch {
        return .failure(
          "line \(number) of standard input is not valid UTF-8; the game was not saved"
        )
      }
    }
    switch value {
    case .text(let line): return line
    case .absent: return nil
    case .failure(let message): throw Failure(message, status: .dataError)
    default: throw session.app.unexpected(value, for: "line")
    }
  }
}

/// `--record FILE` and `--replay FILE` (a session recorded to a file, or played again from one),
/// with `rpg`'s help.
typealias RecordingOptions = CommandLineSupport.RecordingOptions<RPGRecordingHelp>

/// What `--help` says about recordings.
enum RPGRecordingHelp: RecordingHelp {
  static let record =
    "Record this session to FILE (created or replaced) while it plays as usual."
  static let replay =
    "Play the session recorded in FILE again instead of reading commands: the same output, "
    + "without reading or writing the save file."

  static let discussion = """
    Recording: `--record FILE` records the session (the commands read, the game's inputs) to \
    FILE, a JSON Lines file, while it plays as usual. `--replay FILE` plays it again: the \
    commands, the game's states and the outcome of every save and load come from FILE, so it \
    needs no script or terminal input and neither reads nor writes the save file, and it prints \
    what the recorded session printed. Replay with the command and options that recorded it \
    (the same --architecture, --json and --save): a recording made on one architecture is \
    replayed on that architecture only. --record with --replay is a usage error (64); a \
    recording that is damaged (the line is named), of a newer format version, of another app, \
    architecture or command, or that does not match this run is refused with 65, a missing or \
    unreadable one (a directory) with 66, and one that cannot be created or written (a device, \
    a pipe, a directory) with 74.
    """
}

extension RecordingOptions {
  /// The session of `command`: replayed from `--replay`, or live and recorded to `--record`.
  ///
  /// - Throws: `ExitCode` after printing why, when the recording cannot be replayed (65, 66) or
  ///   created (74).
  func session(
    options: GameOptions,
    log: @escaping @Sendable (String) -> Void,
    command: String,
    inspector: LiveInspector? = nil,
    flightRecorder: FlightObserver? = nil
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
      recordingTo: record.map { URL(fileURLWithPath: $0) },
      inspector: inspector,
      flightRecorder: flightRecorder
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
