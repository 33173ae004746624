import Dispatch
import Foundation
import GRDB

/// The Todo database: tasks and their undo history in one SQLite file, through GRDB.
///
/// Opening checks the file before changing anything: a file that is not SQLite, a SQLite database
/// of another application, a corrupt file or one with a newer schema is reported as a
/// ``TodoDatabaseError`` and left untouched. A new or empty file is set up: WAL mode (so several
/// processes can use the file at once) and the schema, by migrations recorded in the file's
/// schema version.
///
/// Every operation runs in one immediate transaction, against what the file holds then, and is
/// recorded in the undo history in the same transaction, so undo works across runs and processes.
///
/// ```swift
/// let database = try TodoDatabase(path: "/tmp/todo.sqlite")
/// let todo = makeTodo(.store, database: database)
/// todo.send(.add(title: "Buy milk"))
/// ```
public final class TodoDatabase: Sendable {
  /// The schema version this code writes; a file with a higher one is refused.
  public static let schemaVersion = 1
  /// The SQLite application id that marks a file as a Todo database ("Todo").
  public static let applicationID: Int32 = 0x546F_646F
  /// How many changes the undo history keeps.
  public static let historyLimit = 100

  /// The file's path.
  public let path: String
  private let queue: DatabaseQueue
  /// Writes run here one at a time, in the order they were enqueued.
  private let writes = DispatchQueue(label: "cascade.todo.writes")

  /// Opens (or creates) the Todo database at `path`.
  ///
  /// - Throws: ``TodoDatabaseError`` when the file cannot be used; it is then left untouched.
  public init(path: String) throws(TodoDatabaseError) {
    self.path = path
    try Self.checkHeader(path: path)
    var configuration = Configuration()
    configuration.busyMode = .timeout(30)
    configuration.label = "todo"
    do {
      queue = try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      throw Self.openError(error, path: path)
    }
    try validate()
    do {
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
    } catch {
      throw .cannotOpen(path: path, detail: "\(error)")
    }
    try migrate()
  }

  // MARK: - Opening

  /// Refuses a non-empty file that does not start with SQLite's header.
  private static func checkHeader(path: String) throws(TodoDatabaseError) {
    guard let handle = FileHandle(forReadingAtPath: path) else { return }
    defer { try? handle.close() }
    let header: Data
    do {
      header = try handle.read(upToCount: 16) ?? Data()
    } catch {
      throw .cannotOpen(path: path, detail: "\(error)")
    }
    if header.isEmpty { return }
    guard header == Data("SQLite format 3\0".utf8) else { throw .notATodoDatabase(path: path) }
  }

  private static func openError(_ error: any Error, path: String) -> TodoDatabaseError {
    if let error = error as? DatabaseError,
      error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    {
      return .corrupt(path: path, detail: error.message ?? "\(error.resultCode)")
    }
    return .cannotOpen(path: path, detail: "\(error)")
  }

  /// Reads the file's identity without writing: a Todo database, an empty file, or neither.
  private func validate() throws(TodoDatabaseError) {
    let path = path
    let identity: (application: Int32, version: Int, objects: Int)
    do {
      identity = try queue.read { db in
        let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? ""
        guard check == "ok" else {
          throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check)
        }
        return (
          try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
          try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
          try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        )
      }
    } catch let error as DatabaseError {
      throw .corrupt(path: path, detail: error.message ?? "\(error.resultCode)")
    } catch {
      throw .corrupt(path: path, detail: "\(error)")
    }
    if identity.application == Self.applicationID {
      guard identity.version <= Self.schemaVersion else {
        throw .newerSchema(path: path, version: identity.version, supported: Self.schemaVersion)
      }
    } else if identity.application != 0 || identity.objects > 0 {
      throw .notATodoDatabase(path: path)
    }
  }

  /// The migrations, by the schema version they lead to.
  private static let migrations: [(version: Int, migrate: @Sendable (Database) throws -> Void)] =
    [
      (
        1,
        { db in
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
      )
    ]

  /// Brings the schema up to ``schemaVersion`` in one transaction (another process may be doing
  /// the same: the version is read again under the write lock).
  private func migrate() throws(TodoDatabaseError) {
    let path = path
    do {
      try queue.inTransaction(.immediate) { db in
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if version > Self.schemaVersion {
          throw TodoDatabaseError.newerSchema(
            path: path,
            version: version,
            supported: Self.schemaVersion
          )
        }
        guard version < Self.schemaVersion else { return .commit }
        for migration in Self.migrations where migration.version > version {
          try migration.migrate(db)
        }
        try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(Self.schemaVersion)")
        return .commit
      }
    } catch let error as TodoDatabaseError {
      throw error
    } catch {
      throw .cannotOpen(path: path, detail: "\(error)")
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
      throw .storage("\(error)")
    }
  }

  /// Performs `operation` in one transaction and returns what the database holds afterwards.
  ///
  /// - Throws: ``TodoError``: the operation does not apply to what is stored (an unknown id,
  ///   nothing to undo), or the database failed; nothing was changed then.
  @discardableResult
  public func perform(_ operation: TodoOperation) throws(TodoError) -> TodoSnapshot {
    do {
      var snapshot: TodoSnapshot?
      try queue.inTransaction(.immediate) { db in
        try Self.apply(operation, db)
        snapshot = try Self.snapshot(db)
        return .commit
      }
      guard let snapshot else { throw TodoError.storage("the transaction did not commit") }
      return snapshot
    } catch let error as TodoError {
      throw error
    } catch {
      throw .storage("\(error)")
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
        result = TodoWriteResult(
          writeID: write.id,
          error: nil,
          snapshot: try perform(write.operation)
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

  private static func snapshot(_ db: Database) throws -> TodoSnapshot {
    TodoSnapshot(
      tasks: try tasks(db),
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

  private static func tasks(_ db: Database) throws -> [TodoTask] {
    try Row.fetchAll(db, sql: "SELECT id, title, done, position FROM task ORDER BY position, id")
      .map { row in
        TodoTask(id: row["id"], title: row["title"], done: row["done"], position: row["position"])
      }
  }

  private static func nextID(_ db: Database) throws -> Int {
    let sequence =
      try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'task'") ?? 0
    let largest = try Int.fetchOne(db, sql: "SELECT max(id) FROM task") ?? 0
    return max(sequence, largest) + 1
  }

  private static func apply(_ operation: TodoOperation, _ db: Database) throws {
    switch operation {
    case .reload: return
    case .undo: try step(db, undoing: true)
    case .redo: try step(db, undoing: false)
    default:
      let before = try tasks(db)
      var list = TodoList(tasks: before, nextID: try nextID(db))
      try list.apply(operation)
      let changes = TaskChange.between(before, list.tasks)
      guard !changes.isEmpty else { return }
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
    }
  }

  /// Undoes the latest change, or redoes the earliest undone one.
  private static func step(_ db: Database, undoing: Bool) throws {
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
    for (index, task) in try tasks(db).enumerated() where task.position != index {
      try db.execute(
        sql: "UPDATE task SET position = ? WHERE id = ?",
        arguments: [index, task.id]
      )
    }
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
    let old = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })
    let new = Dictionary(uniqueKeysWithValues: after.map { ($0.id, $0) })
    return Set(old.keys).union(new.keys).sorted().compactMap { id in
      old[id] == new[id] ? nil : TaskChange(id: id, before: old[id], after: new[id])
    }
  }
}
