import AppSupport
import ArgumentParser
import CascadeStreams
import CommandLineSupport
import Foundation
import TodoCore

/// `todo`: the task list on the command line, persisted in SQLite.
@main
struct Todo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "todo",
    abstract: "A task list persisted in SQLite, on the architecture of your choice.",
    discussion: """
      Without a command, todo reads commands from standard input, one per line (type help), \
      and says what each did (added #12 "Buy milk"; --quiet says nothing on success). The \
      session reads to the end of its input (or quit) and exits with the status of the first \
      command that failed, 0 if none did (64 for a line that is not a command, 65 for one that \
      is not UTF-8).
      Task ids are shown by `todo list`; positions count from 1. Titles are stored as typed; \
      text output shows control characters escaped (\\n, \\u{1B}), --json shows them exactly.

      """ + Self.databaseHelp + "\n\n" + RecordingOptions.help + "\n\n" + ExitStatus.helpText,
    version: CascadeVersion.current,
    subcommands: [
      Add.self, List.self, Done.self, Undone.self, Edit.self, Remove.self, Move.self,
      Undo.self, Redo.self, Import.self, Export.self, Interactive.self,
    ],
    defaultSubcommand: Interactive.self
  )

  /// What `--help` says about database files.
  static let databaseHelp = """
    Database: --db FILE is created if it does not exist. A file todo cannot use is refused \
    with one line on standard error and left byte for byte untouched: 65 for an empty file \
    (--create makes it a new database), a truncated or corrupt one, one that does not start \
    with a SQLite header, a text file, another application's database, or a newer schema; 66 \
    for a directory, a device or pipe, an unreadable file or a missing directory; 74 when the \
    file cannot be created or opened; 75 when another process keeps it locked longer than \
    --lock-timeout. --recover \
    moves a damaged file (or one that is not a Todo database; never a newer schema) aside to \
    FILE.damaged-<UTC time> and starts a new database, and says so on standard error. A file \
    without write permission (also for root) is opened read-only: list and export work, a \
    change is refused with 74.
    Other statuses: 1 when a command is refused (an unknown id, an empty title, nothing to \
    undo); 64 for a bad command line; 65 for an argument that is not UTF-8 or an import file \
    that is not a task list (a title with a NUL character included); 66 for an import file that cannot be read; 74 when an export \
    cannot be written, or standard output is closed (quietly).
    """

  /// The options, also accepted before the command's name: `todo --db PATH add "Buy milk"`.
  @OptionGroup var options: Options

  /// Refuses arguments that are not UTF-8 (65), then parses and runs the command; output to a
  /// closed standard output (help and version included) ends the run quietly with 74.
  static func main() async {
    StandardOutput.prepare()
    if let index = StrictInput.firstInvalidArgument() {
      Session.complain("argument \(index) is not valid UTF-8; nothing was done")
      Foundation.exit(ExitStatus.dataError.rawValue)
    }
    do {
      var command = try parseAsRoot()
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch {
      // Help and version printed the way everything else is; errors on standard error.
      exitPrinting(error)
    }
    StandardOutput.flush()
  }
}

/// The options every command takes.
struct Options: ParsableArguments {
  @Option(name: .long, help: "The database file (default: $XDG_DATA_HOME/cascade/todo.sqlite).")
  var db: String?

  @OptionGroup var architectureOption: ArchitectureOption

  @Flag(help: "Make an empty (0-byte) --db file a new database (a missing file always is).")
  var create = false

  @Flag(
    help: """
      If the database file is damaged or not a Todo database, move it aside to \
      FILE.damaged-<UTC time> and start a new one.
      """
  )
  var recover = false

  @Flag(name: [.short, .long], help: "Print no acknowledgements (lists and errors still print).")
  var quiet = false

  // `.unconditional`: `--lock-timeout -1` is a value out of range, not a missing value.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "How long to wait for another process that holds the database locked, then exit with 75 "
        + "(0: at once).",
      valueName: "SECONDS"
    )
  )
  var lockTimeout: Double = 30

  @OptionGroup var recording: RecordingOptions

  @OptionGroup var inspection: InspectOptions

  /// `--lock-timeout`, as a duration (validated: 0 to a day).
  var lockTimeoutDuration: Duration {
    .milliseconds(Int((lockTimeout * 1000).rounded()))
  }

  /// The architecture the service is built on (`--architecture`).
  var architecture: Architecture { architectureOption.architecture }

  func validate() throws {
    // SQLite would take "" for a temporary database, gone with the process, and all with it.
    if db?.isEmpty == true { throw ValidationError("--db needs a path") }
    try NumericOption.check(lockTimeout, of: "--lock-timeout", atLeast: 0, atMost: 86_400)
    if inspection.inspect, recording.replay != nil {
      throw ValidationError("--inspect shows a live session: it excludes --replay")
    }
  }
}

/// `--record FILE` and `--replay FILE` (a session recorded to a file, or run again from one),
/// with `todo`'s help.
typealias RecordingOptions = CommandLineSupport.RecordingOptions<TodoRecordingHelp>

/// What `--help` says about recordings.
enum TodoRecordingHelp: RecordingHelp {
  static let record =
    "Record this session to FILE (created or replaced) while it runs as usual."
  static let replay =
    "Run the session recorded in FILE again: the same output, without opening the database."

  static let discussion = """
    Recording: with `--record FILE`, any command records its session (what the database held \
    at the start, the lines typed, the files imported, the service's inputs with the outcome of \
    every write) to FILE, a JSON Lines file, while it runs as usual. `--replay FILE` runs it \
    again from FILE: it needs no standard input, opens no database, and reads or writes no \
    file (an export is not written again), and prints what the recorded session printed. \
    Replay with the command and arguments that recorded it (the same --architecture too): a \
    recording made on one architecture is replayed on that architecture only.
    Exit status: 0 on success; 1 when a command is refused (as without a recording); 64 for a \
    bad command line (such as --record with --replay); 65 when FILE is damaged (a truncated or \
    corrupt line, named), of a newer format version, of another app, architecture or command, \
    or does not match this run; 66 when FILE does not exist or cannot be read (a directory); 74 \
    when the recording cannot be created or written (a device, a pipe, a directory).
    """
}

// MARK: - Commands

struct Add: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Add a task at the end of the list.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options
  @Argument(help: "What to do.") var title: String

  func run() async throws {
    try await Session.run(options, command: "add") { try await $0.apply(.add(title: title)) }
  }
}

struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the tasks.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options
  @Flag(help: "Only the tasks done.") var done = false
  @Flag(help: "Only the tasks not done.") var active = false
  @Option(help: "Only the tasks whose title contains this text.") var search: String?
  @Flag(help: "Print JSON.") var json = false

  func validate() throws {
    if done && active { throw ValidationError("--done and --active exclude each other") }
  }

  func run() async throws {
    try await Session.run(options, command: "list") { session in
      let filter: TodoFilter = done ? .done : active ? .active : .all
      let state = try await session.list(filter: filter, search: search ?? "")
      if json {
        StandardOutput.print(
          String(decoding: try TodoTransfer.export(state.visibleTasks), as: UTF8.self)
        )
      } else {
        StandardOutput.write(Session.render(state))
      }
    }
  }
}

struct Done: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Mark a task done.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int

  func validate() throws { try TaskID.check(id) }

  func run() async throws {
    try await Session.run(options, command: "done") { try await $0.apply(.setDone(id: id, true)) }
  }
}

struct Undone: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Mark a task not done.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int

  func validate() throws { try TaskID.check(id) }

  func run() async throws {
    try await Session.run(options, command: "undone") {
      try await $0.apply(.setDone(id: id, false))
    }
  }
}

struct Edit: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Change a task's title.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int
  @Argument(help: "The new title.") var title: String

  func validate() throws { try TaskID.check(id) }

  func run() async throws {
    try await Session.run(options, command: "edit") {
      try await $0.apply(.edit(id: id, title: title))
    }
  }
}

struct Remove: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rm",
    abstract: "Delete a task.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int

  func validate() throws { try TaskID.check(id) }

  func run() async throws {
    try await Session.run(options, command: "rm") { try await $0.apply(.delete(id: id)) }
  }
}

struct Move: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mv",
    abstract: "Move a task.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int
  @Option(parsing: .unconditional, help: "The new position, from 1.") var to: Int

  func validate() throws {
    try TaskID.check(id)
    try NumericOption.check(to, of: "--to (positions start at 1)", in: 1...Int.max)
  }

  func run() async throws {
    try await Session.run(options, command: "mv") {
      try await $0.apply(.move(id: id, to: to - 1))
    }
  }
}

struct Undo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Undo the last change.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options

  func run() async throws {
    try await Session.run(options, command: "undo") { try await $0.apply(.undo) }
  }
}

struct Redo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Redo the last undone change.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options

  func run() async throws {
    try await Session.run(options, command: "redo") { try await $0.apply(.redo) }
  }
}

struct Import: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Append the tasks of a JSON file.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options
  @Argument(help: "The JSON file: an array of {\"title\": …, \"done\": …}.") var file: String

  func run() async throws {
    try await Session.run(options, command: "import") { session in
      try await session.run(.importFile(file))
    }
  }
}

struct Export: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write the tasks to a JSON file.",
    discussion: ExitStatus.helpText
  )
  @OptionGroup var options: Options
  @Argument(help: "The JSON file to write.") var file: String

  func run() async throws {
    try await Session.run(options, command: "export") { session in
      try await session.run(.exportFile(file))
    }
  }
}

struct Interactive: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "shell",
    abstract: "Read commands from standard input, one per line (the default).",
    discussion: """
      Each command says what it did (--quiet: nothing on success); a line that fails is \
      reported on standard error and the session goes on. At the end of the input (or quit) \
      the session exits with the status of the first line that failed: 0 if none did, 1 for a \
      refused command, 64 for a line that is not a command, 65 for a line that is not UTF-8 \
      or a title with a NUL character (ignored), and the statuses of the database and files as `todo --help` lists them.

      """ + ExitStatus.helpText
  )
  @OptionGroup var options: Options

  func run() async throws {
    let session = try Session(options, command: "shell")
    try await session.startInspecting(options)
    let failure = try await reportingReplayErrors {
      let prompt = try await session.app.flag("prompt") { isatty(STDIN_FILENO) == 1 }
      if prompt {
        StandardOutput.print("todo on \(DisplayText.escaped(session.path)); type help")
      }
      return try await Self.loop(session: session, prompt: prompt) {
        try await Self.readLine(session)
      }
    }
    try await session.finish()
    if let failure { throw failure }
  }

  /// The next line of standard input (recorded, or replayed), `nil` at its end.
  ///
  /// - Throws: `InvalidUTF8` when the line is not UTF-8 (it is consumed and ignored).
  static func readLine(_ session: Session) async throws -> String? {
    let read = try await session.app.fact("line") {
      do throws(InvalidUTF8) {
        return try StrictInput.readLine().map(SessionFact.Value.text) ?? .absent
      } catch {
        return .failure(error.location)
      }
    }
    switch read {
    case .text(let line): return line
    case .absent: return nil
    case .failure(let location): throw InvalidUTF8(where: location)
    default: throw session.app.unexpected(read, for: "line")
    }
  }

  /// Runs the commands `nextLine` gives until it returns `nil` (end of input) or `quit`, and
  /// returns the exit status of the first line that failed (`nil` if none did).
  ///
  /// A bad line or a refused command is reported on standard error and the loop goes on. What a
  /// command printed (an `added #…` acknowledgement, given once the task is written) is flushed
  /// before the next line is read, so a reader of a pipe sees it at once. With a prompt, the end
  /// of the input ends the prompt's line.
  ///
  /// - Throws: ``SessionReplayError`` when a replayed recording does not match the run; what
  ///   `nextLine` throws other than `InvalidUTF8`.
  @discardableResult
  static func loop(
    session: Session,
    prompt: Bool,
    nextLine: () async throws -> String?
  ) async throws -> ExitCode? {
    var failure: ExitCode?
    func failed(_ status: Int32) {
      if failure == nil { failure = ExitCode(status) }
    }
    var number = 0
    while true {
      if prompt { StandardOutput.write("todo> ") }
      StandardOutput.flush()
      number += 1
      let line: String
      do {
        guard let next = try await nextLine() else {
          if prompt { StandardOutput.print("") }
          break
        }
        line = next
      } catch let error as InvalidUTF8 {
        Session.complain("line \(number) of \(error.location) is not valid UTF-8; it was ignored")
        failed(ExitStatus.dataError.rawValue)
        continue
      }
      do {
        let command = try TodoCommandLine.parse(line)
        // A title would be stored cut at the NUL, while the acknowledgement showed it whole.
        if let title = Self.title(in: command), TodoTransfer.containsNUL(title) {
          Session.complain(
            "line \(number): a title cannot hold a NUL character (U+0000); it was ignored"
          )
          failed(ExitStatus.dataError.rawValue)
          continue
        }
        if try await session.run(command) == .quit { break }
      } catch let code as ExitCode {
        // Already reported by the session.
        failed(code.rawValue)
      } catch let error as TodoCommandLineError {
        Session.complain("\(error)")
        failed(ExitStatus.usage.rawValue)
      } catch let error as SessionReplayError {
        throw error
      } catch {
        Session.complain("\(error)")
        failed(ExitStatus.failure.rawValue)
      }
    }
    StandardOutput.flush()
    return failure
  }

  /// The title `command` would store (`add`, `edit`), if any.
  static func title(in command: TodoCommand) -> String? {
    switch command {
    case .intent(.add(let title)), .intent(.edit(_, let title)): title
    default: nil
    }
  }
}

/// Task ids on the command line.
enum TaskID {
  /// Refuses an id below 1: ids start at 1.
  ///
  /// - Throws: A `ValidationError` (exit status 64).
  static func check(_ id: Int) throws {
    try NumericOption.check(id, of: "<id>", in: 1...Int.max)
  }
}
