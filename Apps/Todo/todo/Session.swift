import AppSupport
import ArgumentParser
import Foundation
import TodoCore

/// One run of `todo`: the database, the service on it, and the commands' shared steps.
struct Session {
  let database: TodoDatabase
  let service: any AppService<TodoIntent, TodoState>

  /// Opens the database and starts the service; a database that cannot be used ends the run.
  init(_ options: Options) throws {
    let path = try options.db ?? Self.defaultPath()
    do {
      database = try TodoDatabase(path: path)
    } catch {
      Self.complain("\(error)")
      throw ExitCode.failure
    }
    service = makeTodo(options.architecture, database: database)
    if let error = service.currentState.lastError {
      Self.complain("\(error)")
      throw ExitCode.failure
    }
  }

  /// `$XDG_DATA_HOME/cascade/todo.sqlite`, or `~/.local/share/cascade/todo.sqlite`; the
  /// directory is created.
  static func defaultPath() throws -> String {
    let environment = ProcessInfo.processInfo.environment
    let base =
      environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? FileManager.default.homeDirectoryForCurrentUser
      .appendingPathComponent(".local/share", isDirectory: true)
    let directory = base.appendingPathComponent("cascade", isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      complain("cannot create \(directory.path): \(error)")
      throw ExitCode.failure
    }
    return directory.appendingPathComponent("todo.sqlite").path
  }

  /// Sends `intent`, waits until it is written, and fails the run if it was refused or failed.
  @discardableResult
  func perform(_ intent: TodoIntent) async throws -> TodoState {
    let state = try await service.perform(intent, timeout: .seconds(60))
    if let error = state.lastError {
      Self.complain("\(error)")
      throw ExitCode.failure
    }
    return state
  }

  /// The state after reading the database again, with the filter and search applied.
  func list(filter: TodoFilter, search: String) async throws -> TodoState {
    try await perform(.filter(filter))
    try await perform(.search(search))
    return try await perform(.reload)
  }

  /// Imports a JSON file; a file that cannot be read or is malformed imports nothing.
  func importFile(_ file: String) async throws -> Int {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      Self.complain("cannot read \(file): \(error.localizedDescription)")
      throw ExitCode.failure
    }
    let drafts: [TodoDraft]
    do {
      drafts = try TodoTransfer.drafts(from: data)
    } catch {
      Self.complain("cannot import \(file): \(error)")
      throw ExitCode.failure
    }
    try await perform(.importTasks(drafts))
    return drafts.count
  }

  /// Exports every task to a JSON file, written atomically.
  func exportFile(_ file: String) throws -> Int {
    let tasks = service.currentState.tasks
    do {
      try TodoTransfer.export(tasks).write(to: URL(fileURLWithPath: file), options: .atomic)
    } catch {
      Self.complain("cannot write \(file): \(error.localizedDescription)")
      throw ExitCode.failure
    }
    return tasks.count
  }

  /// Runs one command and returns it.
  @discardableResult
  func run(_ command: TodoCommand) async throws -> TodoCommand {
    switch command {
    case .intent(let intent):
      // Another process may have changed the list since this session last read it.
      switch intent {
      case .filter, .search, .reload: break
      default: try await perform(.reload)
      }
      let id = service.currentState.nextID
      let state = try await perform(intent)
      if case .add = intent, let task = state.task(id: id) {
        print("added #\(task.id) \(task.title)")
      }
      if case .search = intent { print(Self.render(state), terminator: "") }
    case .list(let filter, let search):
      print(Self.render(try await list(filter: filter, search: search)), terminator: "")
    case .importFile(let file):
      let count = try await importFile(file)
      print("imported \(count) task\(count == 1 ? "" : "s")")
    case .exportFile(let file):
      let count = try exportFile(file)
      print("exported \(count) task\(count == 1 ? "" : "s")")
    case .help:
      print(TodoCommandLine.help)
    case .quit, .nothing:
      break
    }
    return command
  }

  /// The visible tasks, one per line: position, box, id and title.
  static func render(_ state: TodoState) -> String {
    let visible = state.visibleTasks
    guard !visible.isEmpty else { return "no tasks\n" }
    return visible.map { task in
      "\(task.position + 1). [\(task.done ? "x" : " ")] #\(task.id) \(task.title)\n"
    }.joined()
  }

  /// Prints a message to standard error.
  static func complain(_ message: String) {
    FileHandle.standardError.write(Data("todo: \(message)\n".utf8))
  }
}
