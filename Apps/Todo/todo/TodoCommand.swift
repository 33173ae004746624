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
      """,
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

  func validate() throws {
    // SQLite would take "" for a temporary database, gone with the process, and all with it.
    if db?.isEmpty == true { throw ValidationError("--db needs a path") }
  }
}

extension Architecture: ExpressibleByArgument {}

// MARK: - Commands

struct Add: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Add a task at the end of the list.")
  @OptionGroup var options: Options
  @Argument(help: "What to do.") var title: String

  func run() async throws {
    try await Session(options).run(.intent(.add(title: title)))
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
    let session = try Session(options)
    let filter: TodoFilter = done ? .done : active ? .active : .all
    let state = try await session.list(filter: filter, search: search ?? "")
    if json {
      print(String(decoding: try TodoTransfer.export(state.visibleTasks), as: UTF8.self))
    } else {
      print(Session.render(state), terminator: "")
    }
  }
}

struct Done: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Mark a task done.")
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int

  func run() async throws {
    try await Session(options).perform(.setDone(id: id, true))
  }
}

struct Undone: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Mark a task not done.")
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int

  func run() async throws {
    try await Session(options).perform(.setDone(id: id, false))
  }
}

struct Edit: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Change a task's title.")
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int
  @Argument(help: "The new title.") var title: String

  func run() async throws {
    try await Session(options).perform(.edit(id: id, title: title))
  }
}

struct Remove: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a task.")
  @OptionGroup var options: Options
  @Argument(help: "The task's id.") var id: Int

  func run() async throws {
    try await Session(options).perform(.delete(id: id))
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
    try await Session(options).perform(.move(id: id, to: to - 1))
  }
}

struct Undo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Undo the last change.")
  @OptionGroup var options: Options

  func run() async throws {
    try await Session(options).perform(.undo)
  }
}

struct Redo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Redo the last undone change.")
  @OptionGroup var options: Options

  func run() async throws {
    try await Session(options).perform(.redo)
  }
}

struct Import: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Append the tasks of a JSON file.")
  @OptionGroup var options: Options
  @Argument(help: "The JSON file: an array of {\"title\": …, \"done\": …}.") var file: String

  func run() async throws {
    let session = try Session(options)
    let count = try await session.importFile(file)
    print("imported \(count) task\(count == 1 ? "" : "s")")
  }
}

struct Export: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Write the tasks to a JSON file.")
  @OptionGroup var options: Options
  @Argument(help: "The JSON file to write.") var file: String

  func run() async throws {
    let session = try Session(options)
    let count = try session.exportFile(file)
    print("exported \(count) task\(count == 1 ? "" : "s")")
  }
}

struct Interactive: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "shell",
    abstract: "Read commands from standard input, one per line (the default)."
  )
  @OptionGroup var options: Options

  func run() async throws {
    let session = try Session(options)
    let prompt = isatty(STDIN_FILENO) == 1
    if prompt { print("todo on \(session.database.path); type help") }
    await Self.loop(session: session, prompt: prompt) { readLine() }
  }

  /// Runs the commands `nextLine` gives until it returns `nil` (end of input) or `quit`.
  ///
  /// A bad line or a refused command is reported on standard error and the loop goes on. What a
  /// command printed (an `added #…` acknowledgement, given once the task is written) is flushed
  /// before the next line is read, so a reader of a pipe sees it at once.
  static func loop(session: Session, prompt: Bool, nextLine: () -> String?) async {
    while true {
      if prompt { print("todo> ", terminator: "") }
      fflush(nil)
      guard let line = nextLine() else { break }
      do {
        if try await session.run(try TodoCommandLine.parse(line)) == .quit { break }
      } catch is ExitCode {
        // Already reported by the session.
      } catch {
        Session.complain("\(error)")
      }
    }
    fflush(nil)
  }
}
