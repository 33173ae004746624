/// Why an intent or a write failed, as the state reports it.
public enum TodoError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
  /// A task title was empty (or only white space).
  case emptyTitle
  /// No task has this id.
  case unknownTask(id: Int)
  /// There is no change to undo.
  case nothingToUndo
  /// There is no undone change to redo.
  case nothingToRedo
  /// The database could not be read or written; the state was reconciled with what it holds.
  case storage(String)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .emptyTitle: "a task needs a title"
    case .unknownTask(let id): "no task has the id \(id)"
    case .nothingToUndo: "nothing to undo"
    case .nothingToRedo: "nothing to redo"
    case .storage(let message): "the database failed: \(message)"
    }
  }
}

/// Why a database file could not be opened as a Todo database; the file is left untouched.
public enum TodoDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file exists but is not a Todo database (another SQLite database, or not SQLite).
  case notATodoDatabase(path: String)
  /// The file looks like a SQLite database but cannot be read.
  case corrupt(path: String, detail: String)
  /// The database was written by a newer version of Todo.
  case newerSchema(path: String, version: Int, supported: Int)
  /// The file could not be opened or created.
  case cannotOpen(path: String, detail: String)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .notATodoDatabase(let path):
      "\(path) is not a Todo database; it was left untouched"
    case .corrupt(let path, let detail):
      "\(path) is corrupt (\(detail)); it was left untouched"
    case .newerSchema(let path, let version, let supported):
      "\(path) has schema version \(version), newer than this todo supports (\(supported));"
        + " it was left untouched"
    case .cannotOpen(let path, let detail):
      "cannot open \(path): \(detail)"
    }
  }
}
