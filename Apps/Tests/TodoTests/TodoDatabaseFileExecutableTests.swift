import AppSupport
import AppTestSupport
import Foundation
import GRDB
import Testing
import TodoCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `todo` executable on database files it cannot use: each is refused with its own
/// line on standard error and its documented exit status, and left byte for byte as it was (no
/// file appears beside it either); `--recover` moves a damaged one aside and starts afresh,
/// `--create` makes an empty file a database, and a read-only one can be listed but not changed.
@Suite struct TodoDatabaseFileExecutableTests {
  static let executable = TodoExecutable.url

  /// Runs `todo --db todo.sqlite ARGUMENTS…` in `directory`.
  static func todo(
    _ arguments: [String],
    input: ChildInput = .text(""),
    in directory: URL
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the todo product first")
    let run = try await runChild(
      executable,
      ["--db", "todo.sqlite"] + arguments,
      input: input,
      in: directory
    )
    #expect(!run.signalled && !run.timedOut, "todo \(arguments): \(run.summary)")
    return run
  }

  /// A Todo database of 200 tasks (several pages), made by `todo import` and closed: one file.
  static func seed(_ directory: URL) async throws {
    let tasks = (1...200).map {
      #"{"title": "task \#($0) with a title long enough to fill pages"}"#
    }
    let file = directory.appendingPathComponent("seed.json")
    try Data(("[" + tasks.joined(separator: ",") + "]").utf8).write(to: file)
    let run = try await todo(["import", "seed.json"], in: directory)
    #expect(run.succeeded, "\(run.summary)")
    try FileManager.default.removeItem(at: file)
  }

  /// The names and bytes of every file in `directory` (a file without read permission is read
  /// with it for a moment, when the tests do not run as root).
  static func files(in directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
      var isDirectory: ObjCBool = false
      let url = directory.appendingPathComponent(name)
      _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
      if isDirectory.boolValue {
        files[name] = Data("directory".utf8)
        continue
      }
      var status = stat()
      stat(url.path, &status)
      let readable = FileManager.default.isReadableFile(atPath: url.path)
      if !readable { chmod(url.path, status.st_mode | 0o400) }
      defer { if !readable { chmod(url.path, status.st_mode) } }
      files[name] = try Data(contentsOf: url)
    }
    return files
  }

  /// A file `todo` must refuse: how it is made, the status and the line on standard error.
  struct BadFile: Sendable, CustomTestStringConvertible {
    var name: String
    var status: Int32
    /// The whole of standard error.
    var message: String
    /// What `--recover` says is wrong before it says it moved the file aside; `nil` when it does
    /// not move it.
    var problem: String?
    /// Makes `todo.sqlite` in the directory.
    var make: @Sendable (URL) async throws -> Void

    var testDescription: String { name }
  }

  static let path = "todo.sqlite"

  /// Overwrites `range` of `todo.sqlite` with `bytes`.
  static func overwrite(_ directory: URL, _ body: (inout Data) -> Void) throws {
    let url = directory.appendingPathComponent(path)
    var bytes = try Data(contentsOf: url)
    body(&bytes)
    try bytes.write(to: url)
  }

  static let badFiles: [BadFile] = [
    BadFile(
      name: "a zero-length file",
      status: 65,
      message: "todo: todo.sqlite is empty (0 bytes), not a Todo database; it was left untouched"
        + " (--create makes it a new database)\n",
      problem: "is empty (0 bytes)"
    ) { directory in
      try Data().write(to: directory.appendingPathComponent(path))
    },
    BadFile(
      name: "a truncated file",
      status: 65,
      message: "todo: todo.sqlite is truncated (5000 bytes of 57344); it was left untouched"
        + " (--recover moves it aside and starts a new database)\n",
      problem: "is truncated (5000 bytes of 57344)"
    ) { directory in
      try await seed(directory)
      try overwrite(directory) { bytes in
        #expect(bytes.count == 57_344, "the seed's size changed: update the expected message")
        bytes = bytes.prefix(5000)
      }
    },
    BadFile(
      name: "random bytes over the header",
      status: 65,
      message: "todo: todo.sqlite does not start with a SQLite header: it is damaged, or another"
        + " kind of file; it was left untouched (--recover moves it aside and starts a new"
        + " database)\n",
      problem: "does not start with a SQLite header"
    ) { directory in
      try await seed(directory)
      var random = SplitMix64(seed: 20)
      try overwrite(directory) { bytes in
        for index in 0..<100 { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
      }
    },
    BadFile(
      name: "a text file",
      status: 65,
      message: "todo: todo.sqlite is a text file, not a Todo database; it was left untouched\n",
      problem: "is a text file"
    ) { directory in
      try Data("Buy milk\nWalk the dog\n".utf8).write(to: directory.appendingPathComponent(path))
    },
    BadFile(
      name: "another application's database",
      status: 65,
      message: "todo: todo.sqlite is another application's SQLite database, not a Todo database;"
        + " it was left untouched\n",
      problem: "is another application's SQLite database"
    ) { directory in
      let queue = try DatabaseQueue(path: directory.appendingPathComponent(path).path)
      try await queue.write { db in
        try db.execute(
          sql: "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')"
        )
      }
      try queue.close()
    },
    BadFile(
      name: "a corrupt database",
      status: 65,
      message:
        "todo: todo.sqlite is corrupt (database disk image is malformed); it was left untouched"
        + " (--recover moves it aside and starts a new database)\n",
      problem: "is corrupt (database disk image is malformed)"
    ) { directory in
      try await seed(directory)
      // The header and the first page whole, every page after it overwritten.
      try overwrite(directory) { bytes in
        bytes.replaceSubrange(
          4096..<bytes.count,
          with: Data(repeating: 0x5A, count: bytes.count - 4096)
        )
      }
    },
    BadFile(
      name: "a newer schema",
      status: 65,
      message: "todo: todo.sqlite has schema version 2, newer than this todo supports (1); it was"
        + " left untouched\n",
      problem: nil
    ) { directory in
      try await seed(directory)
      let queue = try DatabaseQueue(path: directory.appendingPathComponent(path).path)
      try await queue.write { db in
        try db.execute(sql: "CREATE TABLE tag (name TEXT)")
        try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v2')")
        try db.execute(sql: "PRAGMA user_version = 2")
      }
      try await queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
      }
      try queue.close()
    },
    BadFile(
      name: "a directory",
      status: 66,
      message: "todo: todo.sqlite is a directory, not a database file\n",
      problem: nil
    ) { directory in
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent(path),
        withIntermediateDirectories: false
      )
    },
    BadFile(
      name: "an unreadable file",
      status: 66,
      message: "todo: cannot read todo.sqlite: permission denied\n",
      problem: nil
    ) { directory in
      try await seed(directory)
      // No read permission for anyone: refused also when the tests run as root.
      #expect(chmod(directory.appendingPathComponent(path).path, 0o200) == 0)
    },
  ]

  /// Proves that each bad file is refused by a read (`list`), a change (`add`) and the shell,
  /// with its status and one line, printing nothing, and that the directory is byte for byte as
  /// it was.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: badFiles
  )
  func aFileThatCannotBeUsedIsRefusedAndLeftUntouched(_ bad: BadFile) async throws {
    try await withTemporaryDirectory { directory in
      try await bad.make(directory)
      let before = try Self.files(in: directory)
      for (arguments, input) in [(["list"], ""), (["add", "x"], ""), ([], "add x\nlist\n")] {
        let run = try await Self.todo(arguments, input: .text(input), in: directory)
        #expect(run.status == bad.status, "todo \(arguments): \(run.summary)")
        #expect(run.errorText == bad.message, "todo \(arguments)")
        #expect(run.output.isEmpty, "todo \(arguments) printed \(run.outputText)")
        #expect(try Self.files(in: directory) == before, "todo \(arguments) changed the files")
      }
    }
  }

  /// Proves that `--recover` moves a damaged file (and one that is not a Todo database) aside to
  /// a timestamped name, byte for byte, says so on standard error, and starts a new database;
  /// and that it moves nothing it must not (a newer schema, a directory, an unreadable file).
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: badFiles
  )
  func recoverMovesADamagedFileAsideAndStartsAfresh(_ bad: BadFile) async throws {
    try await withTemporaryDirectory { directory in
      try await bad.make(directory)
      let before = try Self.files(in: directory)
      let run = try await Self.todo(["--recover", "add", "Buy milk"], in: directory)
      guard let problem = bad.problem else {
        #expect(run.status == bad.status, "\(run.summary)")
        #expect(run.errorText == bad.message)
        #expect(try Self.files(in: directory) == before)
        return
      }
      #expect(run.succeeded, "\(run.summary)")
      #expect(run.outputText == "added #1 \"Buy milk\"\n")
      let lines = run.errorText.split(separator: "\n")
      #expect(lines.count == 1, "\(run.errorText)")
      let line = try #require(lines.first)
      #expect(line.hasPrefix("todo: todo.sqlite \(problem): moved it to "), "\(line)")
      #expect(line.hasSuffix(" and started a new database"), "\(line)")
      let moved = try #require(
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
          .first { $0.hasPrefix("todo.sqlite.damaged-") }
      )
      #expect(line.contains(": moved it to \(moved) and"))
      // The stamp is UTC, to the second: todo.sqlite.damaged-20250101T120000Z.
      #expect(moved.wholeMatch(of: /todo\.sqlite\.damaged-\d{8}T\d{6}Z/) != nil, "\(moved)")
      #expect(try Data(contentsOf: directory.appendingPathComponent(moved)) == before[Self.path])
      let list = try await Self.todo(["list", "--json"], in: directory)
      let tasks = try JSONDecoder().decode([TodoTask].self, from: list.output)
      #expect(tasks.map(\.title) == ["Buy milk"])
    }
  }

  /// Proves that an empty file becomes a database only with `--create`, and that a missing
  /// file is created (whole: no process sees it half made) without it.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func createMakesAnEmptyFileADatabase() async throws {
    try await withTemporaryDirectory { directory in
      try Data().write(to: directory.appendingPathComponent(Self.path))
      let created = try await Self.todo(["--create", "add", "Buy milk"], in: directory)
      #expect(created.succeeded, "\(created.summary)")
      #expect(created.outputText == "added #1 \"Buy milk\"\n")
      // An existing database is opened as it is, with --create or without.
      let again = try await Self.todo(["--create", "add", "Walk the dog"], in: directory)
      #expect(again.outputText == "added #2 \"Walk the dog\"\n")

      let missing = try await runChild(
        try #require(Self.executable),
        ["--db", "new.sqlite", "add", "x"],
        in: directory
      )
      #expect(missing.succeeded, "\(missing.summary)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
          .filter { $0.hasPrefix("new.sqlite") || $0.hasPrefix(".new.sqlite") } == ["new.sqlite"]
      )
    }
  }

  /// Proves that a database in a directory that does not exist (or is a file) is refused with 66,
  /// naming both.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aMissingDirectoryIsRefused() async throws {
    try await withTemporaryDirectory { directory in
      try Data("Buy milk\n".utf8).write(to: directory.appendingPathComponent("notes.txt"))
      let run = try await runChild(
        try #require(Self.executable),
        ["--db", "missing/todo.sqlite", "list"],
        in: directory
      )
      #expect(run.status == 66, "\(run.summary)")
      #expect(
        run.errorText.hasPrefix("todo: cannot create missing/todo.sqlite: there is no directory /")
      )
      #expect(run.errorText.hasSuffix("/missing\n"))
      let file = try await runChild(
        try #require(Self.executable),
        ["--db", "notes.txt/todo.sqlite", "list"],
        in: directory
      )
      #expect(file.status == 66, "\(file.summary)")
      #expect(file.errorText.hasSuffix(": there is no directory \(directory.path)/notes.txt\n"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
    }
  }

  /// Proves that a database without write permission (for anyone: also for root) is read-only:
  /// listing, JSON and export work; every change is refused with 74 and one line, in a command
  /// and in the shell (which goes on, and exits 74); the file is byte for byte unchanged.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func aReadOnlyDatabaseCanBeListedButNotChanged(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      for title in ["Buy milk", "Walk the dog"] {
        let run = try await Self.todo(["add", title], in: directory)
        #expect(run.succeeded, "\(run.summary)")
      }
      let url = directory.appendingPathComponent(Self.path)
      #expect(chmod(url.path, 0o444) == 0)
      defer { chmod(url.path, 0o644) }
      let before = try Data(contentsOf: url)
      let options = ["--architecture", architecture.rawValue]

      let list = try await Self.todo(options + ["list"], in: directory)
      #expect(list.succeeded, "\(list.summary)")
      #expect(list.outputText == "1. [ ] #1 Buy milk\n2. [ ] #2 Walk the dog\n")
      let json = try await Self.todo(options + ["list", "--json"], in: directory)
      #expect(try JSONDecoder().decode([TodoTask].self, from: json.output).count == 2)
      let export = try await Self.todo(options + ["export", "out.json"], in: directory)
      #expect(export.outputText == "exported 2 tasks\n", "\(export.summary)")

      let refusal =
        "todo: todo.sqlite is read-only: its tasks can be listed and exported, not changed\n"
      for change in [
        ["add", "x"], ["done", "1"], ["rm", "2"], ["undo"], ["import", "out.json"],
      ] {
        let run = try await Self.todo(options + change, in: directory)
        #expect(run.status == 74, "todo \(change): \(run.summary)")
        #expect(run.errorText == refusal, "todo \(change)")
        #expect(run.output.isEmpty, "todo \(change)")
      }
      let shell = try await Self.todo(options, input: .text("add x\nlist\n"), in: directory)
      #expect(shell.status == 74, "\(shell.summary)")
      #expect(shell.errorText == refusal)
      #expect(shell.outputText == "1. [ ] #1 Buy milk\n2. [ ] #2 Walk the dog\n")
      #expect(try Data(contentsOf: url) == before)
    }
  }

  /// Proves that a database made before the schema moved to GRDB's migrator (schema version 1,
  /// no record of migrations) is read as it is — also read-only — and upgraded when opened for
  /// writing, keeping its tasks and history.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aDatabaseFromBeforeTheMigratorIsReadAndUpgraded() async throws {
    try await withTemporaryDirectory { directory in
      let url = directory.appendingPathComponent(Self.path)
      let queue = try DatabaseQueue(path: url.path)
      try await queue.writeWithoutTransaction { db in
        try db.execute(
          sql: """
            PRAGMA journal_mode = WAL;
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
            INSERT INTO task (title, done, position) VALUES ('Buy milk', 1, 0);
            PRAGMA application_id = \(TodoDatabase.applicationID);
            PRAGMA user_version = 1;
            PRAGMA wal_checkpoint(TRUNCATE);
            """
        )
      }
      try queue.close()
      chmod(url.path, 0o444)
      let before = try Data(contentsOf: url)
      let readOnly = try await Self.todo(["list"], in: directory)
      #expect(readOnly.outputText == "1. [x] #1 Buy milk\n", "\(readOnly.summary)")
      #expect(try Data(contentsOf: url) == before)
      chmod(url.path, 0o644)

      let added = try await Self.todo(["add", "Walk the dog"], in: directory)
      #expect(added.outputText == "added #2 \"Walk the dog\"\n", "\(added.summary)")
      let migrated = try DatabaseQueue(path: url.path)
      let applied = try await migrated.read { db in
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
      }
      try migrated.close()
      #expect(applied == ["v1"])
      let undone = try await Self.todo(["undo"], in: directory)
      #expect(undone.outputText == "undid the change to #2 \"Walk the dog\"\n")
    }
  }

  /// Proves that a database another process holds locked ends a change with 75 (EX_TEMPFAIL)
  /// and its one line once `--lock-timeout` has passed, changing nothing, while a read still
  /// works; and that the change goes through once the lock is gone.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func aLockedDatabaseEndsAChangeWith75AndChangesNothing(
    _ architecture: Architecture
  ) async throws {
    try await withTemporaryDirectory { directory in
      let options = ["--architecture", architecture.rawValue, "--lock-timeout", "0.2"]
      let added = try await Self.todo(["add", "Buy milk"] + options, in: directory)
      #expect(added.succeeded, "\(added.summary)")
      let path = directory.appendingPathComponent("todo.sqlite").path
      // Read before the lock is taken: closing any descriptor of the file in this process would
      // release the process's POSIX locks on it, SQLite's included.
      let before = try Self.files(in: directory)
      // Another process's write transaction, as `sqlite3 todo.sqlite 'BEGIN EXCLUSIVE'` holds it.
      var configuration = Configuration()
      configuration.allowsUnsafeTransactions = true
      let holder = try DatabaseQueue(path: path, configuration: configuration)
      try holder.inDatabase { try $0.beginTransaction(.exclusive) }

      let refused = try await Self.todo(["add", "Walk the dog"] + options, in: directory)
      try holder.inDatabase { try $0.rollback() }
      try holder.close()
      #expect(refused.status == ExitStatus.temporaryFailure.rawValue, "\(refused.summary)")
      #expect(
        refused.errorText
          == "todo: todo.sqlite is locked by another process; nothing was changed, try again later\n",
        "\(refused.errorText)"
      )
      #expect(try Self.files(in: directory) == before, "the locked database was changed")

      let retried = try await Self.todo(["add", "Walk the dog"] + options, in: directory)
      #expect(retried.succeeded, "\(retried.summary)")
      let listed = try await Self.todo(["list"] + options, in: directory)
      #expect(listed.outputText.contains("Buy milk") && listed.outputText.contains("Walk the dog"))
    }
  }

  /// Proves that `--lock-timeout` takes seconds from 0 to a day, and refuses anything else with
  /// a usage error naming it.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: ["-1", "nan", "inf", "100000", "soon"]
  )
  func aBadLockTimeoutIsAUsageError(_ value: String) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Self.todo(["list", "--lock-timeout", value], in: directory)
      #expect(run.status == ExitStatus.usage.rawValue, "\(run.summary)")
      #expect(run.errorText.contains("--lock-timeout"), "\(run.errorText)")
      #expect(try Self.files(in: directory).isEmpty, "a refused command created the database")
    }
  }
}
