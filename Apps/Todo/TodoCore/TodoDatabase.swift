import AppSupport
import Dispatch
import Foundation
import GRDB

/// The Todo database: tasks and their undo history in one SQLite file, through GRDB.
///
/// Opening checks the file before changing anything, and refuses a file it cannot use with a
/// ``TodoDatabaseError`` of its own (see ``init(path:creatingInEmptyFile:)``), leaving it byte
/// for byte untouched. A missing file is created whole: set up in a file of its own beside it
/// and linked into place, so no process ever sees a half-made database. The schema is made by
/// GRDB's `DatabaseMigrator`; WAL mode lets several processes use the file at once.
///
/// Every operation runs in one immediate transaction, against what the file holds then, is
/// recorded in the undo history in the same transaction (so undo works across runs and
/// processes), and reports what it committed (``TodoCommit``).
///
/// ```swift
/// let database = try TodoDatabase(path: "/tmp/todo.sqlite")
/// let todo = makeTodo(.store, database: database)
/// todo.send(.add(title: "Buy milk"))
/// ```
public final class TodoDatabase: Sendable {
  /// The schema version this code writes (the number of migrations, also kept in SQLite's
  /// `user_version`); a file with a higher one is refused.
  public static let schemaVersion = 1
  /// The SQLite application id that marks a file as a Todo database ("Todo").
  public static let applicationID: Int32 = 0x546F_646F
  /// How many changes the undo history keeps.
  public static let historyLimit = 100

  /// The file's path.
  public let path: String
  /// Whether the file is open read-only, because it cannot be written (see
  /// ``init(path:creatingInEmptyFile:)``): reads work, every change fails with
  /// ``TodoError/readOnly(path:)``.
  public let isReadOnly: Bool
  private let queue: DatabaseQueue
  /// Writes run here one at a time, in the order they were enqueued.
  private let writes = DispatchQueue(label: "cascade.todo.writes")

  /// Opens the Todo database at `path`, creating it if there is no file.
  ///
  /// A file without write permission (for anyone, or for this process) is opened read-only.
  /// Refused, and left byte for byte untouched: an empty file (unless `creatingInEmptyFile`),
  /// a truncated one, one that does not start with SQLite's header, a text file, another
  /// application's SQLite database, a corrupt one, one with a newer schema, a directory,
  /// another kind of file, an unreadable file.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - creatingInEmptyFile: Whether an existing empty (zero-byte) file becomes a new database.
  ///   - lockTimeout: How long to wait for another process that holds the file locked before
  ///     failing with ``TodoDatabaseError/busy(path:)`` or ``TodoError/busy(path:)``; `.zero`
  ///     fails at once.
  /// - Throws: ``TodoDatabaseError`` when the file cannot be used.
  public init(
    path: String,
    creatingInEmptyFile: Bool = false,
    lockTimeout: Duration = .seconds(30)
  ) throws(TodoDatabaseError) {
    self.path = path
    // A symbolic link is followed to the file it leads to, which is opened (or created) and
    // kept a link: SQLite's write-ahead log and shared memory go beside the real file.
    let path = (try? SafeFile.resolvingLinks(path)) ?? path
    var file = try TodoDatabaseFile.inspect(path)
    if file == nil {
      try Self.create(path)
      file = try TodoDatabaseFile.inspect(path)
    }
    guard let file else {
      throw .cannotOpen(path: path, detail: "it was removed while it was being opened")
    }
    if file.isEmpty && !creatingInEmptyFile { throw .emptyFile(path: path) }
    if file.isEmpty && file.isReadOnly { throw .readOnly(path: path) }
    isReadOnly = file.isReadOnly
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(
        path: Self.openingPath(path, readOnly: isReadOnly),
        configuration: Self.configuration(readOnly: isReadOnly, lockTimeout: lockTimeout)
      )
    } catch {
      throw Self.openError(error, path: path)
    }
    do throws(TodoDatabaseError) {
      switch try Self.schema(of: queue, path: path) {
      case .current: break
      case .recorded where isReadOnly: break
      case .recorded, .none:
        if isReadOnly { throw TodoDatabaseError.readOnly(path: path) }
        try Self.setUp(queue, path: path)
      }
    } catch {
      try? queue.close()
      throw error
    }
    self.queue = queue
  }

  // MARK: - Opening

  /// What SQLite opens for the file at `path`: the path itself, or, for a file opened read-only
  /// with no write-ahead log beside it, an `immutable` URI, so that reading it creates no `-wal`
  /// or `-shm` file beside it (a read-only connection to a WAL database creates them when it
  /// can, as the superuser always can).
  ///
  /// Immutable is safe there: the file has no write permission and no log, so no todo process
  /// writes it while it is read.
  private static func openingPath(_ path: String, readOnly: Bool) -> String {
    guard readOnly, !FileManager.default.fileExists(atPath: path + "-wal") else { return path }
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    guard let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) else {
      return path
    }
    return "file:\(escaped)?immutable=1"
  }

  private static func configuration(
    readOnly: Bool,
    lockTimeout: Duration = .seconds(30)
  ) -> Configuration {
    var configuration = Configuration()
    let (seconds, attoseconds) = lockTimeout.components
    let timeout = Double(seconds) + Double(attoseconds) / 1e18
    configuration.busyMode = timeout > 0 ? .timeout(timeout) : .immediateError
    configuration.readonly = readOnly
    configuration.label = "todo"
    return configuration
  }

  /// The schema, by GRDB's migrator: each migration in a transaction of its own, recorded in
  /// the file.
  private static let migrator: DatabaseMigrator = {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      // A database made before the migrator (schema version 1) has these tables already.
      if try !db.tableExists("task") {
        try db.execute(
          sql: """
            CREATE TABLE task (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              title TEXT NOT NULL,
              done INTEGER NOT NULL DEFAULT 0,
              position INTEGER NOT NULL
            );
            CREATE TABLE history (
              seq INTEGER PRIMARY KEY AUTOINCREMENT,
              undone INTEGER NOT NULL DEFAULT 0,
              changes TEXT NOT NULL
            );
            """
        )
      }
      try db.execute(sql: "PRAGMA application_id = \(applicationID)")
      try db.execute(sql: "PRAGMA user_version = 1")
    }
    return migrator
  }()

  /// How far a database's schema is.
  private enum Schema {
    /// Every migration is applied.
    case current
    /// At ``schemaVersion``, but the migrations are not recorded (made before the migrator):
    /// readable as it is, recorded when next opened for writing.
    case recorded
    /// Not set up: a new database.
    case none
  }

  /// Reads the database's identity without writing: the file must pass SQLite's quick check,
  /// and be a Todo database of this schema or an older one, or a new one.
  private static func schema(
    of queue: DatabaseQueue,
    path: String
  ) throws(TodoDatabaseError) -> Schema {
    let identity:
      (application: Int32, version: Int, objects: Int, completed: Bool, superseded: Bool)
    do {
      identity = try queue.read { db in
        let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
        guard check == ["ok"] else {
          throw DatabaseError(
            resultCode: .SQLITE_CORRUPT,
            message: check.first ?? "the quick check found nothing"
          )
        }
        return (
          try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
          try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
          try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0,
          try migrator.hasCompletedMigrations(db),
          try migrator.hasBeenSuperseded(db)
        )
      }
    } catch {
      throw openError(error, path: path)
    }
    guard identity.application == applicationID else {
      // A new database has nothing in it: no application id, no tables, and no user version (a
      // file another tool marked with one is that tool's, even with no tables yet).
      if identity.application != 0 || identity.objects > 0 || identity.version != 0 {
        throw .notATodoDatabase(path: path)
      }
      return .none
    }
    if identity.version > schemaVersion || identity.superseded {
      throw .newerSchema(
        path: path,
        version: max(identity.version, schemaVersion + 1),
        supported: schemaVersion
      )
    }
    if identity.completed { return .current }
    return identity.version == schemaVersion ? .recorded : .none
  }

  /// Sets up WAL mode and applies the migrations.
  ///
  /// Another process may be doing the same at once: a migration it applied first fails here, and
  /// what matters is that every migration is applied.
  private static func setUp(_ queue: DatabaseQueue, path: String) throws(TodoDatabaseError) {
    do {
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
      try migrator.migrate(queue)
    } catch {
      let completed = try? queue.read { db in try migrator.hasCompletedMigrations(db) }
      if completed == true { return }
      throw openError(error, path: path)
    }
  }

  /// Makes a new database at `path`, whole.
  ///
  /// It is set up in a file of its own in the same directory, then linked into place, so that
  /// another process sees no file, or a whole database. If another process made one first, that
  /// one is kept.
  private static func create(_ path: String) throws(TodoDatabaseError) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).new").path
    let files = FileManager.default
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] {
        try? files.removeItem(atPath: temporary + suffix)
      }
    }
    do {
      let queue = try DatabaseQueue(path: temporary, configuration: configuration(readOnly: false))
      try setUp(queue, path: path)
      try queue.close()
    } catch {
      throw .cannotCreate(path: path, detail: describe(error))
    }
    do {
      try files.linkItem(atPath: temporary, toPath: path)
    } catch {
      if files.fileExists(atPath: path) { return }
      // A file system without hard links: moved into place (if no file has appeared meanwhile).
      do {
        try files.moveItem(atPath: temporary, toPath: path)
      } catch {
        if files.fileExists(atPath: path) { return }
        throw .cannotCreate(path: path, detail: FileProblem(error, path: path).reason)
      }
    }
  }

  private static func describe(_ error: any Error) -> String {
    if let error = error as? TodoDatabaseError {
      switch error {
      case .cannotOpen(_, let detail), .cannotCreate(_, let detail), .corrupt(_, let detail):
        return detail
      default: return error.description
      }
    }
    if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
    return "\(error)"
  }

  private static func openError(_ error: any Error, path: String) -> TodoDatabaseError {
    if let error = error as? TodoDatabaseError { return error }
    guard let error = error as? DatabaseError else {
      return .cannotOpen(path: path, detail: "\(error)")
    }
    let detail = error.message ?? "\(error.resultCode)"
    switch error.resultCode {
    case .SQLITE_CORRUPT, .SQLITE_NOTADB:
      return .corrupt(path: path, detail: detail)
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return .busy(path: path)
    case .SQLITE_READONLY:
      return .readOnly(path: path)
    default:
      return .cannotOpen(path: path, detail: detail)
    }
  }

  // MARK: - Reading and writing

  /// What the database holds now.
  ///
  /// - Throws: ``TodoError/storage(_:)`` when it cannot be read.
  public func load() throws(TodoError) -> TodoSnapshot {
    do {
      return try queue.read { db in try Self.snapshot(db) }
    } catch {
      throw storageError(error)
    }
  }

  /// Performs `operation` in one transaction and returns what it committed and what the
  /// database holds afterwards.
  ///
  /// A reload only reads (it works on a read-only file).
  ///
  /// - Throws: ``TodoError``: the operation does not apply to what is stored (an unknown id,
  ///   nothing to undo), the file is read-only, or the database failed; nothing was changed
  ///   then.
  @discardableResult
  public func perform(
    _ operation: TodoOperation
  ) throws(TodoError) -> (commit: TodoCommit, snapshot: TodoSnapshot) {
    if operation == .reload {
      return (TodoCommit(tasks: []), try load())
    }
    if isReadOnly { throw .readOnly(path: path) }
    do {
      var outcome: (commit: TodoCommit, snapshot: TodoSnapshot)?
      try queue.inTransaction(.immediate) { db in
        let applied = try Self.apply(operation, db)
        outcome = (
          TodoCommit(tasks: applied.addressed),
          try Self.snapshot(db, tasks: applied.tasks)
        )
        return .commit
      }
      guard let outcome else { throw TodoError.storage("the transaction did not commit") }
      return outcome
    } catch let error as TodoError {
      throw error
    } catch {
      throw storageError(error)
    }
  }

  private func storageError(_ error: any Error) -> TodoError {
    guard let error = error as? DatabaseError else { return .storage("\(error)") }
    switch error.resultCode {
    case .SQLITE_BUSY, .SQLITE_LOCKED: return .busy(path: path)
    case .SQLITE_READONLY: return .readOnly(path: path)
    default: return .storage(error.message ?? "\(error.resultCode)")
    }
  }

  /// Performs `write` after every write enqueued before it, then reports how it ended.
  ///
  /// `completion` is called on the database's write queue. A failed write reports its error and
  /// what the database holds, for the state to be reconciled with.
  public func enqueue(
    _ write: TodoWrite,
    completion: @escaping @Sendable (TodoWriteResult) -> Void
  ) {
    writes.async { [self] in
      let result: TodoWriteResult
      do throws(TodoError) {
        let outcome = try perform(write.operation)
        result = TodoWriteResult(
          writeID: write.id,
          error: nil,
          commit: outcome.commit,
          snapshot: outcome.snapshot
        )
      } catch {
        result = TodoWriteResult(writeID: write.id, error: error, snapshot: try? load())
      }
      completion(result)
    }
  }

  /// Performs `write` after every write enqueued before it and returns the result.
  public func perform(_ write: TodoWrite) async -> TodoWriteResult {
    await withCheckedContinuation { continuation in
      enqueue(write) { continuation.resume(returning: $0) }
    }
  }

  // MARK: - Closing

  /// Closes the file once the writes enqueued before have ended.
  ///
  /// Without it the file closes when the last reference to the database goes, which may come
  /// later, on another thread; a caller that must know the file is closed (to change or remove
  /// it) closes it. Operations after it fail.
  ///
  /// - Throws: ``TodoError/storage(_:)`` if SQLite cannot close the file.
  public func close() async throws(TodoError) {
    let queue = queue
    let closed = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Void, TodoError>, Never>) in
      writes.async {
        do {
          try queue.close()
          continuation.resume(returning: .success(()))
        } catch {
          continuation.resume(returning: .failure(.storage("\(error)")))
        }
      }
    }
    try closed.get()
  }

  // MARK: - SQL

  /// What the database holds; `tasks` when the caller has just read or written them in the
  /// same transaction.
  private static func snapshot(
    _ db: Database,
    tasks known: [TodoTask]? = nil
  ) throws
    -> TodoSnapshot
  {
    TodoSnapshot(
      tasks: try known ?? tasks(db),
      nextID: try nextID(db),
      canUndo: try Bool.fetchOne(
        db,
        sql: "SELECT EXISTS (SELECT 1 FROM history WHERE undone = 0)"
      ) ?? false,
      canRedo: try Bool.fetchOne(
        db,
        sql: "SELECT EXISTS (SELECT 1 FROM history WHERE undone = 1)"
      ) ?? false
    )
  }

  /// The tasks in list order, read through a cursor by column index: read whole for every
  /// write, so their cost is that of the list.
  private static func tasks(_ db: Database) throws -> [TodoTask] {
    let rows = try Row.fetchCursor(
      db,
      sql: "SELECT id, title, done, position FROM task ORDER BY position, id"
    )
    var tasks: [TodoTask] = []
    while let row = try rows.next() {
      tasks.append(TodoTask(id: row[0], title: row[1], done: row[2], position: row[3]))
    }
    return tasks
  }

  private static func nextID(_ db: Database) throws -> Int {
    let sequence =
      try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'task'") ?? 0
    let largest = try Int.fetchOne(db, sql: "SELECT max(id) FROM task") ?? 0
    return max(sequence, largest) + 1
  }

  /// Applies `operation` and returns the tasks it was about, as it left them (see
  /// ``TodoCommit/tasks``), and every task, in list order, as it left them.
  private static func apply(
    _ operation: TodoOperation,
    _ db: Database
  ) throws -> (addressed: [TodoTask], tasks: [TodoTask]) {
    switch operation {
    case .reload: return ([], try tasks(db))
    case .undo: return try step(db, undoing: true)
    case .redo: return try step(db, undoing: false)
    default:
      let before = try tasks(db)
      let firstNewID = try nextID(db)
      var list = TodoList(tasks: before, nextID: firstNewID)
      try list.apply(operation)
      let addressed = addressed(by: operation, before: before, after: list.tasks, firstNewID)
      let changes = TaskChange.between(before, list.tasks)
      guard !changes.isEmpty else { return (addressed, list.tasks) }
      try store(changes.map { ($0.id, $0.after) }, db)
      try db.execute(sql: "DELETE FROM history WHERE undone = 1")
      try db.execute(
        sql: "INSERT INTO history (changes) VALUES (?)",
        arguments: [String(decoding: try JSONEncoder().encode(changes), as: UTF8.self)]
      )
      try db.execute(
        sql: "DELETE FROM history WHERE seq <= (SELECT max(seq) FROM history) - ?",
        arguments: [historyLimit]
      )
      return (addressed, list.tasks)
    }
  }

  /// The tasks `operation` names, from the lists before and after it: the new ones (their ids
  /// start at `firstNewID`), the one it changed, or the one it deleted (as it was).
  private static func addressed(
    by operation: TodoOperation,
    before: [TodoTask],
    after: [TodoTask],
    _ firstNewID: Int
  ) -> [TodoTask] {
    switch operation {
    case .add, .importTasks:
      return after.filter { $0.id >= firstNewID }
    case .edit(let id, _), .setDone(let id, _), .move(let id, _):
      return after.filter { $0.id == id }
    case .delete(let id):
      return before.filter { $0.id == id }
    case .undo, .redo, .reload:
      return []
    }
  }

  /// Undoes the latest change, or redoes the earliest undone one; returns the tasks it changed
  /// as it left them (one it deleted as it was), and every task in list order.
  private static func step(
    _ db: Database,
    undoing: Bool
  ) throws -> (addressed: [TodoTask], tasks: [TodoTask]) {
    let sql =
      undoing
      ? "SELECT seq, changes FROM history WHERE undone = 0 ORDER BY seq DESC LIMIT 1"
      : "SELECT seq, changes FROM history WHERE undone = 1 ORDER BY seq ASC LIMIT 1"
    guard let row = try Row.fetchOne(db, sql: sql) else {
      throw undoing ? TodoError.nothingToUndo : TodoError.nothingToRedo
    }
    let seq: Int = row["seq"]
    let json: String = row["changes"]
    let changes = try JSONDecoder().decode([TaskChange].self, from: Data(json.utf8))
    try store(changes.map { ($0.id, undoing ? $0.before : $0.after) }, db)
    try db.execute(
      sql: "UPDATE history SET undone = ? WHERE seq = ?",
      arguments: [undoing, seq]
    )
    // Another process may have changed the list since: close any gap in the positions.
    var final = try tasks(db)
    for (index, task) in final.enumerated() where task.position != index {
      try db.execute(
        sql: "UPDATE task SET position = ? WHERE id = ?",
        arguments: [index, task.id]
      )
      final[index].position = index
    }
    let now = Dictionary(uniqueKeysWithValues: final.map { ($0.id, $0) })
    let addressed = changes.compactMap { change in
      now[change.id] ?? (undoing ? change.after : change.before)
    }
    return (addressed, final)
  }

  /// Writes each task version: `nil` deletes the task.
  private static func store(_ versions: [(Int, TodoTask?)], _ db: Database) throws {
    for (id, version) in versions {
      if let task = version {
        try db.execute(
          sql: "INSERT OR REPLACE INTO task (id, title, done, position) VALUES (?, ?, ?, ?)",
          arguments: [task.id, task.title, task.done, task.position]
        )
      } else {
        try db.execute(sql: "DELETE FROM task WHERE id = ?", arguments: [id])
      }
    }
  }
}

/// One task before and after a change, as the undo history stores it (`nil`: absent).
struct TaskChange: Codable, Equatable {
  var id: Int
  var before: TodoTask?
  var after: TodoTask?

  /// The tasks that differ between two lists, by id.
  static func between(_ before: [TodoTask], _ after: [TodoTask]) -> [TaskChange] {
    var old = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })
    var changes: [TaskChange] = []
    for task in after {
      let previous = old.removeValue(forKey: task.id)
      if previous != task { changes.append(TaskChange(id: task.id, before: previous, after: task)) }
    }
    for (id, task) in old { changes.append(TaskChange(id: id, before: task, after: nil)) }
    return changes.sorted { $0.id < $1.id }
  }
}
