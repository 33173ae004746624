public import AppSupport

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
  /// The database file is read-only (it has no write permission): it can be read, not changed.
  case readOnly(path: String)
  /// Another process held the database longer than the wait allows; nothing was changed.
  case busy(path: String)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .emptyTitle: "a task needs a title"
    case .unknownTask(let id): "no task has the id \(id)"
    case .nothingToUndo: "nothing to undo"
    case .nothingToRedo: "nothing to redo"
    case .storage(let message): "the database failed: \(message)"
    case .readOnly(let path):
      "\(path) is read-only: its tasks can be listed and exported, not changed"
    case .busy(let path):
      "\(path) is locked by another process; nothing was changed, try again later"
    }
  }

  /// How a command that ends with this error exits: 1 when the list's rules refuse it, 74 when
  /// the database cannot be written, 75 when it is locked.
  public var exitStatus: ExitStatus {
    switch self {
    case .emptyTitle, .unknownTask, .nothingToUndo, .nothingToRedo: .failure
    case .storage, .readOnly: .ioError
    case .busy: .temporaryFailure
    }
  }
}

/// Why a database file could not be opened as a Todo database; the file is left untouched.
///
/// Each case has its own one-line ``description`` and its ``exitStatus``: 65 for a file whose
/// content is not a Todo database todo can use (empty, truncated, damaged, another kind of file,
/// a newer schema), 66 for a file that cannot be read at all (a directory, no permission, a
/// missing directory), 74 for a file that cannot be created or opened, 75 for one locked by
/// another process.
public enum TodoDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file exists and is empty (zero bytes); only an explicit request makes it a database.
  case emptyFile(path: String)
  /// The file starts as a SQLite database but is shorter than its header says: `size` bytes of
  /// `expected` (`nil`: the header itself is cut).
  case truncated(path: String, size: Int, expected: Int?)
  /// The file does not start with SQLite's header and is not text: damaged, or another kind of
  /// file.
  case notSQLite(path: String)
  /// The file is a text file.
  case textFile(path: String)
  /// The file is another application's SQLite database.
  case notATodoDatabase(path: String)
  /// The file looks like a SQLite database but SQLite finds it damaged.
  case corrupt(path: String, detail: String)
  /// The database was written by a newer version of Todo.
  case newerSchema(path: String, version: Int, supported: Int)
  /// The path is a directory.
  case isDirectory(path: String)
  /// The path is not a regular file (a device, a pipe, a socket).
  case notAFile(path: String)
  /// The file cannot be read (no permission).
  case unreadable(path: String)
  /// The directory the file should be created in does not exist.
  case missingDirectory(path: String, directory: String)
  /// The file is read-only, and must be set up or upgraded before it can be used.
  case readOnly(path: String)
  /// Another process held the file longer than the wait allows.
  case busy(path: String)
  /// The file could not be created (no permission to write its directory, a read-only file
  /// system, a full disk).
  case cannotCreate(path: String, detail: String)
  /// The file could not be opened (an I/O error).
  case cannotOpen(path: String, detail: String)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .emptyFile(let path):
      "\(path) is empty (0 bytes), not a Todo database; it was left untouched"
        + " (--create makes it a new database)"
    case .truncated(let path, let size, let expected):
      "\(path) is truncated (\(size) bytes\(expected.map { " of \($0)" } ?? ""));"
        + " it was left untouched (--recover moves it aside and starts a new database)"
    case .notSQLite(let path):
      "\(path) does not start with a SQLite header: it is damaged, or another kind of file;"
        + " it was left untouched (--recover moves it aside and starts a new database)"
    case .textFile(let path):
      "\(path) is a text file, not a Todo database; it was left untouched"
    case .notATodoDatabase(let path):
      "\(path) is another application's SQLite database, not a Todo database;"
        + " it was left untouched"
    case .corrupt(let path, let detail):
      "\(path) is corrupt (\(detail)); it was left untouched"
        + " (--recover moves it aside and starts a new database)"
    case .newerSchema(let path, let version, let supported):
      "\(path) has schema version \(version), newer than this todo supports (\(supported));"
        + " it was left untouched"
    case .isDirectory(let path):
      "\(path) is a directory, not a database file"
    case .notAFile(let path):
      "\(path) is not a regular file (a device, a pipe or a socket)"
    case .unreadable(let path):
      "cannot read \(path): permission denied"
    case .missingDirectory(let path, let directory):
      "cannot create \(path): there is no directory \(directory)"
    case .readOnly(let path):
      "\(path) is read-only and must be set up or upgraded first; make it writable once"
    case .busy(let path):
      "\(path) is locked by another process; try again later"
    case .cannotCreate(let path, let detail):
      "cannot create \(path): \(detail)"
    case .cannotOpen(let path, let detail):
      "cannot open \(path): \(detail)"
    }
  }

  /// How a command that cannot open the database exits.
  public var exitStatus: ExitStatus {
    switch self {
    case .emptyFile, .truncated, .notSQLite, .textFile, .notATodoDatabase, .corrupt, .newerSchema:
      .dataError
    case .isDirectory, .notAFile, .unreadable, .missingDirectory: .noInput
    case .readOnly, .cannotCreate, .cannotOpen: .ioError
    case .busy: .temporaryFailure
    }
  }

  /// Whether ``TodoDatabase/recover(path:now:)`` applies.
  ///
  /// It does when the file is readable, and its content is damaged or not a Todo database. A
  /// newer schema is not damaged (a newer todo reads it), and a file that cannot be read is not
  /// moved.
  public var isRecoverable: Bool {
    switch self {
    case .emptyFile, .truncated, .notSQLite, .textFile, .notATodoDatabase, .corrupt: true
    default: false
    }
  }

  /// What is wrong with the file, without its name and what was done about it: `is truncated
  /// (4096 bytes of 12288)`.
  public var problem: String {
    switch self {
    case .emptyFile: "is empty (0 bytes)"
    case .truncated(_, let size, let expected):
      "is truncated (\(size) bytes\(expected.map { " of \($0)" } ?? ""))"
    case .notSQLite: "does not start with a SQLite header"
    case .textFile: "is a text file"
    case .notATodoDatabase: "is another application's SQLite database"
    case .corrupt(_, let detail): "is corrupt (\(detail))"
    default: description
    }
  }

  /// The file the error is about.
  public var path: String {
    switch self {
    case .emptyFile(let path), .truncated(let path, _, _), .notSQLite(let path),
      .textFile(let path), .notATodoDatabase(let path), .corrupt(let path, _),
      .newerSchema(let path, _, _), .isDirectory(let path), .notAFile(let path),
      .unreadable(let path), .missingDirectory(let path, _), .readOnly(let path),
      .busy(let path), .cannotCreate(let path, _), .cannotOpen(let path, _):
      path
    }
  }
}
