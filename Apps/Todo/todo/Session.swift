import AppSupport
import ArgumentParser
import Foundation
import TodoCore

/// One run of `todo`: the database's path, the session with the service on it, and the
/// commands' shared steps.
struct Session {
  /// The database file.
  let path: String
  /// The session: live, recorded (`--record`) or replayed (`--replay`, with no database).
  let app: AppSession<TodoIntent, TodoState>
  /// The service.
  var service: any AppService<TodoIntent, TodoState> { app.service }

  /// Opens the database and starts a live session that records nothing (whatever `options`
  /// say about recordings); a database that cannot be used ends the run.
  init(_ options: Options) throws {
    let path = try options.db ?? Self.defaultPath()
    self.path = path
    app = makeTodoSession(options.architecture, database: try Self.open(path), command: "shell")
    try checkLoaded()
  }

  /// The session of `command`: replayed from `--replay` (no database is opened), or live on the
  /// database, and recorded to `--record`.
  ///
  /// - Throws: `ExitCode` after printing why, when the database cannot be used (1), or the
  ///   recording cannot be replayed (65, 66) or created (74).
  init(_ options: Options, command: String) throws {
    if let replay = options.recording.replay {
      path = try options.db ?? Self.defaultPath(creating: false)
      do {
        app = try replayTodoSession(
          options.architecture,
          contentsOf: URL(fileURLWithPath: replay),
          command: command
        )
      } catch {
        Self.complain("\(error)")
        throw ExitCode(error.exitCode)
      }
    } else {
      let path = try options.db ?? Self.defaultPath()
      self.path = path
      app = makeTodoSession(
        options.architecture,
        database: try Self.open(path),
        command: command,
        recordingTo: options.recording.record.map { URL(fileURLWithPath: $0) }
      )
      if let problem = app.recordingProblem {
        Self.complain("cannot record the session: \(problem)")
        throw ExitCode(RecordingOptions.cannotRecord)
      }
    }
    try checkLoaded()
  }

  /// Runs `body` in the session of `command`, then ends it (see ``finish()``).
  ///
  /// - Throws: `ExitCode` after printing why, when the session cannot start or a replayed
  ///   recording does not match the run; what `body` throws.
  static func run(
    _ options: Options,
    command: String,
    _ body: (Session) async throws -> Void
  ) async throws {
    let session = try Session(options, command: command)
    try await reportingReplayErrors {
      try await body(session)
    }
    try await session.finish()
  }

  /// Ends the session: a replay replays what the recording holds after the last intent and
  /// checks that it holds nothing more; a recording checks that every record was written.
  ///
  /// - Throws: `ExitCode` 65 after printing why, when the replay does not match the recording; 74
  ///   when records were lost.
  func finish() async throws {
    try await reportingReplayErrors { try await app.finish() }
    if let problem = app.recordingProblem {
      Self.complain("the recording is incomplete: \(problem)")
      throw ExitCode(RecordingOptions.cannotRecord)
    }
  }

  /// The database at `path`; one that cannot be used ends the run.
  private static func open(_ path: String) throws -> TodoDatabase {
    do {
      return try TodoDatabase(path: path)
    } catch {
      complain("\(error)")
      throw ExitCode.failure
    }
  }

  /// Ends the run if the database could not be read.
  private func checkLoaded() throws {
    if let error = service.currentState.lastError {
      Self.complain("\(error)")
      throw ExitCode.failure
    }
  }

  /// `$XDG_DATA_HOME/cascade/todo.sqlite`, or `~/.local/share/cascade/todo.sqlite`; the
  /// directory is created unless `creating` is false.
  static func defaultPath(creating: Bool = true) throws -> String {
    let environment = ProcessInfo.processInfo.environment
    let base =
      environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? FileManager.default.homeDirectoryForCurrentUser
      .appendingPathComponent(".local/share", isDirectory: true)
    let directory = base.appendingPathComponent("cascade", isDirectory: true)
    do {
      if creating {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      }
    } catch {
      complain("cannot create \(directory.path): \(error)")
      throw ExitCode.failure
    }
    return directory.appendingPathComponent("todo.sqlite").path
  }

  /// Sends `intent`, waits until it is written, and fails the run if it was refused or failed.
  @discardableResult
  func perform(_ intent: TodoIntent) async throws -> TodoState {
    let state = try await app.perform(intent, timeout: .seconds(60))
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
  ///
  /// In a replay, the file's bytes are the recorded ones.
  func importFile(_ file: String) async throws -> Int {
    let read = try await app.fact("import") {
      do {
        return .data(try Data(contentsOf: URL(fileURLWithPath: file)))
      } catch {
        return .failure(error.localizedDescription)
      }
    }
    let data: Data
    switch read {
    case .data(let bytes):
      data = bytes
    case .failure(let reason):
      Self.complain("cannot read \(file): \(reason)")
      throw ExitCode.failure
    default:
      throw app.unexpected(read, for: "import")
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
  ///
  /// A replay writes no file: whether the recorded session wrote it is recorded.
  func exportFile(_ file: String) async throws -> Int {
    let tasks = service.currentState.tasks
    let written = try await app.fact("export") {
      do {
        try TodoTransfer.export(tasks).write(to: URL(fileURLWithPath: file), options: .atomic)
        return .flag(true)
      } catch {
        return .failure(error.localizedDescription)
      }
    }
    switch written {
    case .flag: return tasks.count
    case .failure(let reason):
      Self.complain("cannot write \(file): \(reason)")
      throw ExitCode.failure
    default:
      throw app.unexpected(written, for: "export")
    }
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
      let count = try await exportFile(file)
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

/// Runs `body`; a recording that does not match the run is reported on standard error, and ends
/// the command with its exit status.
@discardableResult
func reportingReplayErrors<T>(_ body: () async throws -> T) async throws -> T {
  do {
    return try await body()
  } catch let error as SessionReplayError {
    Session.complain("\(error)")
    throw ExitCode(error.exitCode)
  }
}
