public import AppSupport
public import ArgumentParser
import Foundation
import TodoCore

/// `todo`: the task list on the command line, persisted in SQLite.
@main
struct Todo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "todo",
    abstract: "A task list persisted in SQLite, on the architecture of your choice.",
    discussion: """
      Without a command, todo reads commands from standard input, one per line (type help).
      Task ids are shown by `todo list`; positions count from 1.

      """ + RecordingOptions.help,
    subcommands: [
      Add.self, List.self, Done.self, Undone.self, Edit.self, Remove.self, Move.self,
      Undo.self, Redo.self, Import.self, Export.self, Interactive.self,
    ],
    defaultSubcommand: Interactive.self
  )

  /// The options, also accepted before the command's name: `todo --db PATH add "Buy milk"`.
  @OptionGroup var options: Options
}

/// The options every command takes.
struct Options: ParsableArguments {
  @Option(name: .long, help: "The database file (default: $XDG_DATA_HOME/cascade/todo.sqlite).")
  var db: String?

  @Option(name: .long, help: "The architecture: store, reactor or feedback.")
  var architecture: Architecture = .store

  @OptionGroup var recording: RecordingOptions

  func validate() throws {
    // SQLite would take "" for a temporary database, gone with the process, and all with it.
    if db?.isEmpty == true { throw ValidationError("--db needs a path") }
  }
}

/// `--record FILE` and `--replay FILE`: a session recorded to a file, or run again from one.
struct RecordingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Record this session to FILE (created or replaced) while it runs as usual.",
      valueName: "FILE"
    )
  )
  var record: String?

  @Option(
    help: ArgumentHelp(
      "Run the session recorded in FILE again: the same output, without opening the database.",
      valueName: "FILE"
    )
  )
  var replay: String?

  /// The exit status when the recording cannot be created, or records of the session could not
  /// be written.
  static let cannotRecord = ExitStatus.ioError.rawValue

  /// What `--help` says about recordings.
  static let help = """
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
}

extension Architecture: ExpressibleByArgument {}

// MARK: - Commands

struct Add: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Add a task at the end of the list.")
  @OptionGroup var options: Options
  @Argument(help: "What to do.") var title: String

  func run() async throws {
    try await Session.run(options, command: "add") { try await $0.run(.intent(.add(title: title))) }
  }
}

struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "List the tasks.")
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
        print(String(decoding: try TodoTransfer.export(state.visibleTasks), as: UTF8.self))
      } else {
        print(Session.render(state), terminator: "")
      }
    }
  }
}

struct Done: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Mark a task done.")
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int

  func run() async throws {
    try await Session.run(options, command: "done") { try await $0.perform(.setDone(id: id, true)) }
  }
}

struct Undone: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Mark a task not done.")
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int

  func run() async throws {
    try await Session.run(options, command: "undone") {
      try await $0.perform(.setDone(id: id, false))
    }
  }
}

struct Edit: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Change a task's title.")
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int
  @Argument(help: "The new title.") var title: String

  func run() async throws {
    try await Session.run(options, command: "edit") {
      try await $0.perform(.edit(id: id, title: title))
    }
  }
}

struct Remove: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a task.")
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int

  func run() async throws {
    try await Session.run(options, command: "rm") { try await $0.perform(.delete(id: id)) }
  }
}

struct Move: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "mv", abstract: "Move a task.")
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int
  @Option(help: "The new position, from 1.") var to: Int

  func validate() throws {
    if to < 1 { throw ValidationError("positions start at 1") }
  }

  func run() async throws {
    try await Session.run(options, command: "mv") {
      try await $0.perform(.move(id: id, to: to - 1))
    }
  }
}

struct Undo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Undo the last change.")
  @OptionGroup var options: Options

  func run() async throws {
    try await Session.run(options, command: "undo") { try await $0.perform(.undo) }
  }
}

struct Redo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Redo the last undone change.")
  @OptionGroup var options: Options

  func run() async throws {
    try await Session.run(options, command: "redo") { try await $0.perform(.redo) }
  }
}

struct Import: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Append the tasks of a JSON file.")
  @OptionGroup var options: Options
  @Argument(help: "The JSON file: an array of {\"title\": …, \"done\": …}.") var file: String

  func run() async throws {
    try await Session.run(options, command: "import") { session in
      let count = try await session.importFile(file)
      print("imported \(count) task\(count == 1 ? "" : "s")")
    }
  }
}

struct Export: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Write the tasks to a JSON file.")
  @OptionGroup var options: Options
  @Argument(help: "The JSON file to write.") var file: String

  func run() async throws {
    try await Session.run(options, command: "export") { session in
      let count = try await session.exportFile(file)
      print("exported \(count) task\(count == 1 ? "" : "s")")
    }
  }
}

struct Interactive: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "shell",
    abstract: "Read commands from standard input, one per line (the default)."
  )
  @OptionGroup var options: Options

  func run() async throws {
    try await Session.run(options, command: "shell") { session in
      let prompt = try await session.app.flag("prompt") { isatty(STDIN_FILENO) == 1 }
      if prompt { print("todo on \(session.path); type help") }
      try await Self.loop(session: session, prompt: prompt) {
        try await session.app.line { readLine() }
      }
    }
  }

  /// Runs the commands `nextLine` gives until it returns `nil` (end of input) or `quit`.
  ///
  /// A bad line or a refused command is reported on standard error and the loop goes on. What a
  /// command printed (an `added #…` acknowledgement, given once the task is written) is flushed
  /// before the next line is read, so a reader of a pipe sees it at once.
  ///
  /// - Throws: ``SessionReplayError`` when a replayed recording does not match the run; what
  ///   `nextLine` throws.
  static func loop(
    session: Session,
    prompt: Bool,
    nextLine: () async throws -> String?
  ) async throws {
    while true {
      if prompt { print("todo> ", terminator: "") }
      fflush(nil)
      guard let line = try await nextLine() else { break }
      do {
        if try await session.run(try TodoCommandLine.parse(line)) == .quit { break }
      } catch is ExitCode {
        // Already reported by the session.
      } catch let error as SessionReplayError {
        throw error
      } catch {
        Session.complain("\(error)")
      }
    }
    fflush(nil)
  }
}
