import AppSupport
import CascadeTesting
import Foundation
import GRDB
import Testing
import TodoCore

/// The database: persistence across services (as across runs), undo across runs, and files it
/// must refuse and leave untouched.
@Suite(.checksResources) struct TodoDatabaseTests {
  @Test(arguments: Architecture.allCases)
  func tasksSurviveTheService(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("todo.sqlite").path
      let written = try await service(architecture, path: path).perform(
        .add(title: "Buy milk"),
        .add(title: "Walk the dog"),
        .toggle(id: 2),
        .move(id: 2, to: 0)
      )
      // A new database connection and service, as the next run of `todo` has.
      for reader in Architecture.allCases {
        let loaded = try service(reader, path: path).currentState
        #expect(loaded.tasks == written.tasks)
        #expect(loaded.tasks.map(\.title) == ["Walk the dog", "Buy milk"])
        #expect(loaded.tasks.map(\.done) == [true, false])
        #expect(loaded.canUndo && !loaded.canRedo && loaded.nextID == 3)
      }
    }
  }

  @Test(arguments: Architecture.allCases)
  func undoAndRedoWorkAcrossRuns(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("todo.sqlite").path
      try await service(architecture, path: path).perform(.add(title: "a"), .add(title: "b"))
      try await service(architecture, path: path).perform(.delete(id: 1))
      var state = try await service(architecture, path: path).perform(.undo)
      #expect(state.titles == ["a", "b"])
      state = try await service(architecture, path: path).perform(.undo)
      #expect(state.titles == ["a"] && state.canUndo && state.canRedo)
      state = try service(architecture, path: path).currentState
      #expect(state.titles == ["a"] && state.canRedo)
      state = try await service(architecture, path: path).perform(.redo)
      #expect(state.titles == ["a", "b"])
      state = try await service(architecture, path: path).perform(.redo)
      #expect(state.titles == ["b"] && !state.canRedo)
      state = try await service(architecture, path: path).perform(.redo)
      #expect(state.lastError == .nothingToRedo && state.titles == ["b"])
    }
  }

  @Test func schemaAndModeAreSetUp() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("todo.sqlite").path
      _ = try TodoDatabase(path: path)
      _ = try TodoDatabase(path: path)  // opening again migrates nothing
      let queue = try DatabaseQueue(path: path)
      let (version, application, mode, tables) = try await queue.read { db in
        (
          try Int.fetchOne(db, sql: "PRAGMA user_version"),
          try Int32.fetchOne(db, sql: "PRAGMA application_id"),
          try String.fetchOne(db, sql: "PRAGMA journal_mode"),
          try db.tableExists("task") && db.tableExists("history")
        )
      }
      #expect(version == TodoDatabase.schemaVersion)
      #expect(application == TodoDatabase.applicationID)
      #expect(mode == "wal")
      #expect(tables)
    }
  }

  @Test func anEmptyFileBecomesATodoDatabaseOnlyWhenAsked() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("empty.sqlite").path
      #expect(FileManager.default.createFile(atPath: path, contents: Data()))
      try expectRefused(path, .emptyFile(path: path))
      let database = try TodoDatabase(path: path, creatingInEmptyFile: true)
      let state = try await makeTodo(.store, database: database).perform(.add(title: "a"))
      #expect(state.titles == ["a"])
    }
  }

  /// Opens `path`, expects `error`, and checks the file's bytes did not change.
  func expectRefused(_ path: String, _ error: TodoDatabaseError) throws {
    let before = try contents(of: path)
    #expect(throws: error) { try TodoDatabase(path: path) }
    #expect(try contents(of: path) == before)
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path
    )
    #expect(leftovers.allSatisfy { !$0.hasSuffix("-wal") || !$0.hasPrefix("foreign") })
  }

  @Test func aTextFileIsNotATodoDatabase() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("notes.txt").path
      try Data("Buy milk\nWalk the dog\n".utf8).write(to: URL(fileURLWithPath: path))
      try expectRefused(path, .textFile(path: path))
    }
  }

  @Test func anotherApplicationsDatabaseIsRefused() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("foreign.sqlite").path
      try await DatabaseQueue(path: path).write { db in
        try db.execute(
          sql: "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')"
        )
      }
      try expectRefused(path, .notATodoDatabase(path: path))
    }
  }

  @Test func aNewerSchemaIsRefused() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("newer.sqlite").path
      try await service(.store, path: path).perform(.add(title: "from the future"))
      try await DatabaseQueue(path: path).writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA user_version = 99")
      }
      try expectRefused(
        path,
        .newerSchema(path: path, version: 99, supported: TodoDatabase.schemaVersion)
      )
    }
  }

  @Test func aCorruptFileIsRefused() async throws {
    try await withTemporaryDirectory { directory in
      // SQLite's header, then garbage.
      let garbage = directory.appendingPathComponent("garbage.sqlite").path
      try (Data("SQLite format 3\0".utf8) + Data(repeating: 0xAB, count: 4000))
        .write(to: URL(fileURLWithPath: garbage))
      // A real Todo database, its pages after the first overwritten.
      let damaged = directory.appendingPathComponent("damaged.sqlite").path
      do {
        let database = try TodoDatabase(path: damaged)
        let todo = makeTodo(.store, database: database)
        for index in 1...50 { try await todo.perform(.add(title: "task \(index)")) }
        // Closed now: the service may let go of the database later, on another thread, and the
        // file must be closed before its journal mode changes.
        try await database.close()
      }
      try await DatabaseQueue(path: damaged).writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
      }
      var bytes = try contents(of: damaged)
      #expect(bytes.count > 8192)
      bytes.replaceSubrange(
        4096..<bytes.count,
        with: Data(repeating: 0x5A, count: bytes.count - 4096)
      )
      try bytes.write(to: URL(fileURLWithPath: damaged))

      for path in [garbage, damaged] {
        let before = try contents(of: path)
        #expect {
          try TodoDatabase(path: path)
        } throws: { error in
          guard case .corrupt(let reported, _) = error as? TodoDatabaseError else { return false }
          return reported == path
        }
        #expect(try contents(of: path) == before)
      }
    }
  }

  @Test func aFileThatCannotBeCreatedIsReported() async throws {
    let directory = "/nonexistent-\(UUID().uuidString)"
    let path = directory + "/todo.sqlite"
    #expect(throws: TodoDatabaseError.missingDirectory(path: path, directory: directory)) {
      try TodoDatabase(path: path)
    }
    // Even root cannot create files in /proc.
    #expect {
      try TodoDatabase(path: "/proc/cascade-todo.sqlite")
    } throws: { error in
      guard case .cannotCreate = error as? TodoDatabaseError else { return false }
      return true
    }
  }
}
