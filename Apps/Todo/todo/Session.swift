import AppSupport
import ArgumentParser
import CommandLineSupport
import Foundation
import InspectorLink
import TodoCore

/// One run of `todo`: the database's path, the session with the service on it, and the
/// commands' shared steps.
struct Session {
  /// The database file.
  let path: String
  /// The session: live, recorded (`--record`) or replayed (`--replay`, with no database).
  let app: AppSession<TodoIntent, TodoState>
  /// Whether acknowledgements are left out (`--quiet`).
  let quiet: Bool
  /// The database, closed by ``finish()``; `nil` in a replay.
  let database: TodoDatabase?
  /// The live inspection endpoint (`--inspect`), started by ``startInspecting(_:)``.
  let inspector: LiveInspector?
  /// How long a command waits for its write: `--lock-timeout`, which SQLite may spend waiting
  /// for another process's lock, and a minute more for the work itself.
  let patience: Duration
  /// The service.
  var service: any AppService<TodoIntent, TodoState> { app.service }

  /// Opens the database and starts a live session that records nothing (whatever `options`
  /// say about recordings); a database that cannot be used ends the run.
  init(_ options: Options) throws {
    let path = try options.db ?? Self.defaultPath()
    self.path = path
    quiet = options.quiet
    patience = options.lockTimeoutDuration + .seconds(60)
    let database = try Self.open(path, options)
    self.database = database
    app = makeTodoSession(options.architecture, database: database, command: "shell")
    inspector = nil
    try checkLoaded()
  }

  /// The session of `command`: replayed from `--replay` (no database is opened), or live on the
  /// database, and recorded to `--record`.
  ///
  /// - Throws: `ExitCode` after printing why, when the database cannot be used (its
  ///   ``TodoDatabaseError/exitStatus``), or the recording cannot be replayed (65, 66) or
  ///   created (74).
  init(_ options: Options, command: String) throws {
    quiet = options.quiet
    patience = options.lockTimeoutDuration + .seconds(60)
    if let replay = options.recording.replay {
      path = try options.db ?? Self.defaultPath(creating: false)
      database = nil
      inspector = nil
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
      let database = try Self.open(path, options)
      self.database = database
      let inspector = options.inspection.makeInspector(
        app: "todo",
        architecture: options.architecture,
        command: command
      )
      self.inspector = inspector
      app = makeTodoSession(
        options.architecture,
        database: database,
        command: command,
        recordingTo: options.recording.record.map { URL(fileURLWithPath: $0) },
        inspector: inspector
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
    try await session.startInspecting(options)
    try await reportingReplayErrors {
      try await body(session)
    }
    try await session.finish()
  }

  /// Starts the live inspection endpoint, if `--inspect` asked for one, and prints its URL on
  /// standard error.
  ///
  /// - Throws: `ExitCode` 74 after printing why, when its port cannot be listened on.
  func startInspecting(_ options: Options) async throws {
    try await options.inspection.start(inspector, app: "todo")
  }

  /// Ends the session: a replay replays what the recording holds after the last intent and
  /// checks that it holds nothing more; a recording checks that every record was written.
  ///
  /// - Throws: `ExitCode` 65 after printing why, when the replay does not match the recording; 74
  ///   when records were lost.
  func finish() async throws {
    try await reportingReplayErrors { try await app.finish() }
    // Every write has ended: closing now folds the write-ahead log into the file (when no other
    // process has it open), rather than leaving it beside it. A close that fails loses nothing.
    try? await database?.close()
    if let problem = app.recordingProblem {
      Self.complain("the recording is incomplete: \(problem)")
      throw ExitCode(RecordingOptions.cannotRecord)
    }
  }

  /// The database at `path`; one that cannot be used ends the run with its exit status.
  ///
  /// With `--recover`, a file that is damaged or not a Todo database is moved aside and a new
  /// database started, and standard error says so; with `--create`, an empty file becomes a new
  /// database.
  private static func open(_ path: String, _ options: Options) throws -> TodoDatabase {
    do {
      return try TodoDatabase(
        path: path,
        creatingInEmptyFile: options.create,
        lockTimeout: options.lockTimeoutDuration
      )
    } catch let error where options.recover && error.isRecoverable {
      do {
        let moved = try TodoDatabase.recover(path: path)
        let database = try TodoDatabase(path: path)
        complain("\(path) \(error.problem): moved it to \(moved) and started a new database")
        return database
      } catch {
        complain(error.description)
        throw ExitCode(error.exitStatus.rawValue)
      }
    } catch {
      complain(error.description)
      throw ExitCode(error.exitStatus.rawValue)
    }
  }

  /// Ends the run if the database could not be read.
  private func checkLoaded() throws {
    if let error = service.currentState.lastError {
      Self.complain("\(error)")
      throw ExitCode(error.exitStatus.rawValue)
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
      complain("cannot create \(directory.path): \(FileProblem(error, path: directory.path))")
      throw ExitCode(ExitStatus.ioError.rawValue)
    }
    return directory.appendingPathComponent("todo.sqlite").path
  }

  /// Sends `intent`, waits until it is written, and fails the run if it was refused or failed
  /// (with the error's exit status).
  @discardableResult
  func perform(_ intent: TodoIntent) async throws -> TodoState {
    let state: TodoState
    do {
      state = try await app.perform(intent, timeout: patience)
    } catch is AppServiceTimeout {
      Self.complain(
        "\(path) did not answer within \(patience.components.seconds) seconds; "
          + "the command may not have been done, try again later"
      )
      throw ExitCode(ExitStatus.temporaryFailure.rawValue)
    }
    if let error = state.lastError {
      Self.complain("\(error)")
      throw ExitCode(error.exitStatus.rawValue)
    }
    return state
  }

  /// Performs `intent` and says what it did (unless `--quiet`), from what its transaction
  /// committed: `added #12 "Buy milk"`.
  @discardableResult
  func apply(_ intent: TodoIntent) async throws -> TodoState {
    let state = try await perform(intent)
    if !quiet, let line = Self.acknowledgement(of: intent, commit: state.lastCommit) {
      StandardOutput.print(line)
    }
    return state
  }

  /// What `intent` did, for the user, from what its write committed; `nil` when it changes
  /// nothing to report (a filter, a search, a reload).
  static func acknowledgement(of intent: TodoIntent, commit: TodoCommit?) -> String? {
    guard let tasks = commit?.tasks else { return nil }
    func changed(_ verb: String) -> String {
      switch tasks.count {
      case 0: "\(verb) nothing"
      case 1: "\(verb) the change to \(named(tasks[0]))"
      default: "\(verb) the change to \(tasks.count) tasks"
      }
    }
    switch intent {
    case .add: return tasks.first.map { "added \(named($0))" }
    case .edit: return tasks.first.map { "edited \(named($0))" }
    case .delete: return tasks.first.map { "removed \(named($0))" }
    case .setDone, .toggle:
      return tasks.first.map { "\($0.done ? "done" : "not done") \(named($0))" }
    case .move: return tasks.first.map { "moved \(named($0)) to position \($0.position + 1)" }
    case .undo: return changed("undid")
    case .redo: return changed("redid")
    case .importTasks: return "imported \(tasks.count) task\(tasks.count == 1 ? "" : "s")"
    case .filter, .search, .reload: return nil
    }
  }

  /// `#12 "Buy milk"`, control characters escaped.
  static func named(_ task: TodoTask) -> String {
    "#\(task.id) \"\(DisplayText.escaped(task.title))\""
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
        return .data(try SafeFile.read(file))
      } catch {
        return .failure(FileProblem(error, path: file).reason)
      }
    }
    let data: Data
    switch read {
    case .data(let bytes):
      data = bytes
    case .failure(let reason):
      Self.complain("cannot read \(file): \(reason)")
      throw ExitCode(ExitStatus.noInput.rawValue)
    default:
      throw app.unexpected(read, for: "import")
    }
    let drafts: [TodoDraft]
    do {
      drafts = try TodoTransfer.drafts(from: data)
    } catch {
      Self.complain("cannot import \(file): \(error)")
      throw ExitCode(ExitStatus.dataError.rawValue)
    }
    let state = try await perform(.importTasks(drafts))
    return state.lastCommit?.tasks.count ?? 0
  }

  /// Exports every task to a JSON file, written atomically (``SafeFile``: through a symbolic
  /// link, never over a device, a pipe, a socket or a directory).
  ///
  /// A replay writes no file: whether the recorded session wrote it is recorded.
  func exportFile(_ file: String) async throws -> Int {
    let tasks = service.currentState.tasks
    let written = try await app.fact("export") {
      do {
        try SafeFile.write(TodoTransfer.export(tasks), to: file)
        return .flag(true)
      } catch {
        return .failure(FileProblem(error, path: file).reason)
      }
    }
    switch written {
    case .flag: return tasks.count
    case .failure(let reason):
      Self.complain("cannot write \(file): \(reason)")
      throw ExitCode(ExitStatus.ioError.rawValue)
    default:
      throw app.unexpected(written, for: "export")
    }
  }

  /// Runs one command and returns it.
  @discardableResult
  func run(_ command: TodoCommand) async throws -> TodoCommand {
    switch command {
    case .intent(let intent):
      // Another process may have changed the list since this session last read it: what the
      // intent is checked against must be read again. An add is checked against nothing stored
      // (its write reports the list afterwards).
      switch intent {
      case .filter, .search, .reload, .add, .importTasks: break
      default: try await perform(.reload)
      }
      let state = try await apply(intent)
      if case .search = intent { StandardOutput.write(Self.render(state)) }
    case .list(let filter, let search):
      StandardOutput.write(Self.render(try await list(filter: filter, search: search)))
    case .importFile(let file):
      let count = try await importFile(file)
      if !quiet { StandardOutput.print("imported \(count) task\(count == 1 ? "" : "s")") }
    case .exportFile(let file):
      let count = try await exportFile(file)
      if !quiet { StandardOutput.print("exported \(count) task\(count == 1 ? "" : "s")") }
    case .help:
      StandardOutput.print(TodoCommandLine.help)
    case .quit, .nothing:
      break
    }
    return command
  }

  /// The visible tasks, one per line: position, box, id and title (control characters
  /// escaped, so that a title is one line and sends nothing to the terminal).
  static func render(_ state: TodoState) -> String {
    let visible = state.visibleTasks
    guard !visible.isEmpty else { return "no tasks\n" }
    return visible.map { task in
      "\(task.position + 1). [\(task.done ? "x" : " ")] #\(task.id) "
        + "\(DisplayText.escaped(task.title))\n"
    }.joined()
  }

  /// Prints a message to standard error, on one line (control characters escaped).
  static func complain(_ message: String) {
    StandardError.print("todo: \(DisplayText.escaped(message))")
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
