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

/// The built `todo` executable against a standard error it cannot write, titles with a NUL
/// character, a read-only database in a read-only directory, another tool's empty SQLite file,
/// and help into a closed standard output.
@Suite struct TodoHostileInputTests {
  static let executable = TodoExecutable.url

  /// Runs `todo ARGUMENTS…` in `directory`.
  static func todo(
    _ arguments: [String],
    input: ChildInput = .text(""),
    in directory: URL,
    shell: String? = nil
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the todo product first")
    let run = try await runChild(executable, arguments, input: input, in: directory, shell: shell)
    #expect(!run.signalled && !run.timedOut, "todo \(arguments): \(run.summary)")
    return run
  }

  /// The names in `directory`, sorted.
  static func names(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  /// Proves that a negative number given to an option is refused as out of range (64, the range
  /// named), not as a missing value: ArgumentParser took `-1` for an option's name.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: [
      (["list", "--lock-timeout", "-1"], "--lock-timeout must be"),
      (["list", "--lock-timeout=-1"], "--lock-timeout must be"),
      (["mv", "1", "--to", "-1"], "--to (positions start at 1) must be"),
    ]
  )
  func aNegativeOptionValueIsOutOfRange(_ arguments: [String], _ message: String) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Self.todo(["--db", "t.sqlite"] + arguments, in: directory)
      #expect(run.status == 64, "\(run.summary)")
      #expect(run.errorText.contains(message), "\(run.errorText)")
      #expect(run.errorText.contains("not -1"), "\(run.errorText)")
      #expect(!run.errorText.contains("Missing"), "\(run.errorText)")
      #expect(try Self.names(in: directory).isEmpty, "nothing is created")
    }
  }

  /// Proves that a standard error that is full (`2>/dev/full`) or closed (`2>&-`) loses the
  /// message but never the exit status: it used to trap (SIGILL, 132).
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aFullOrClosedStandardErrorKeepsTheStatus() async throws {
    try await withTemporaryDirectory { directory in
      let missing = ["--db", "missing-dir/x.sqlite", "add", "x"]
      let told = try await Self.todo(missing, in: directory)
      #expect(told.status == ExitStatus.noInput.rawValue, "\(told.summary)")
      #expect(told.errorText.hasPrefix("todo: "), "\(told.errorText)")
      for redirect in ["2>/dev/full", "2>&-"] {
        let lost = try await Self.todo(missing, in: directory, shell: #"exec "$@" "# + redirect)
        #expect(lost.status == ExitStatus.noInput.rawValue, "\(redirect): \(lost.summary)")
        let shell = try await Self.todo(
          ["--db", "todo.sqlite", "shell"],
          input: .text("frob\n"),
          in: directory,
          shell: #"exec "$@" "# + redirect
        )
        #expect(shell.status == ExitStatus.usage.rawValue, "\(redirect): \(shell.summary)")
      }
      #expect(try Self.names(in: directory) == ["todo.sqlite"])
    }
  }

  /// Proves that a title with a NUL character, which SQLite would store cut at it while the
  /// acknowledgement showed it whole, is refused with 65 in the shell and in an import, and
  /// nothing is stored.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aTitleWithANULCharacterIsRefused() async throws {
    try await withTemporaryDirectory { directory in
      let options = ["--db", "todo.sqlite"]
      let shell = try await Self.todo(
        options,
        input: .text("add Buy\u{0}milk\nedit 1 x\u{0}y\nlist\n"),
        in: directory
      )
      #expect(shell.status == ExitStatus.dataError.rawValue, "\(shell.summary)")
      #expect(
        shell.errorText
          == "todo: line 1: a title cannot hold a NUL character (U+0000); it was ignored\n"
          + "todo: line 2: a title cannot hold a NUL character (U+0000); it was ignored\n",
        "\(shell.errorText)"
      )
      #expect(shell.outputText == "no tasks\n", "\(shell.outputText)")

      try Data(#"[{"title": "Walk"}, {"title": "Buy\u0000milk"}]"#.utf8)
        .write(to: directory.appendingPathComponent("tasks.json"))
      let imported = try await Self.todo(options + ["import", "tasks.json"], in: directory)
      #expect(imported.status == ExitStatus.dataError.rawValue, "\(imported.summary)")
      #expect(
        imported.errorText
          == "todo: cannot import tasks.json: task 2 has a NUL character (U+0000) in its title, "
          + "which a title cannot hold\n",
        "\(imported.errorText)"
      )
      let listed = try await Self.todo(options + ["list", "--json"], in: directory)
      #expect(listed.succeeded, "\(listed.summary)")
      #expect(try JSONDecoder().decode([TodoTask].self, from: listed.output).isEmpty)
    }
  }

  /// Proves that listing a database without write permission, in a directory without write
  /// permission, works and leaves no `-wal` or `-shm` file beside it (even for root, whom the
  /// permissions do not stop).
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aReadOnlyDatabaseIsListedWithoutNewFiles() async throws {
    try await withTemporaryDirectory { parent in
      let directory = parent.appendingPathComponent("ro")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let added = try await Self.todo(
        ["--db", "todo.sqlite", "add", "Buy milk"],
        in: directory
      )
      #expect(added.succeeded, "\(added.summary)")
      #expect(try Self.names(in: directory) == ["todo.sqlite"])
      let url = directory.appendingPathComponent("todo.sqlite")
      let before = try Data(contentsOf: url)
      #expect(chmod(url.path, 0o444) == 0)
      #expect(chmod(directory.path, 0o555) == 0)
      defer {
        chmod(directory.path, 0o755)
        chmod(url.path, 0o644)
      }
      for arguments in [["list"], ["list", "--json"], ["list", "--done"]] {
        let run = try await Self.todo(["--db", "todo.sqlite"] + arguments, in: directory)
        #expect(run.succeeded, "todo \(arguments): \(run.summary)")
        #expect(try Self.names(in: directory) == ["todo.sqlite"], "todo \(arguments)")
      }
      let listed = try await Self.todo(["--db", "todo.sqlite", "list"], in: directory)
      #expect(listed.outputText == "1. [ ] #1 Buy milk\n", "\(listed.summary)")
      #expect(try Data(contentsOf: url) == before)
    }
  }

  /// Proves that an empty SQLite file another tool marked with a `user_version` (no tables, no
  /// application id) is not adopted as a new Todo database: 65, one line, the file untouched.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func anotherToolsEmptyDatabaseIsNotAdopted() async throws {
    try await withTemporaryDirectory { directory in
      let url = directory.appendingPathComponent("todo.sqlite")
      let queue = try DatabaseQueue(path: url.path)
      try await queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA user_version = 7")
      }
      try queue.close()
      let before = try Data(contentsOf: url)
      #expect(try Self.names(in: directory) == ["todo.sqlite"])
      for arguments in [["list"], ["add", "x"]] {
        let run = try await Self.todo(["--db", "todo.sqlite"] + arguments, in: directory)
        #expect(run.status == ExitStatus.dataError.rawValue, "todo \(arguments): \(run.summary)")
        #expect(
          run.errorText
            == "todo: todo.sqlite is another application's SQLite database, not a Todo database;"
            + " it was left untouched\n",
          "\(run.errorText)"
        )
        #expect(try Data(contentsOf: url) == before)
        #expect(try Self.names(in: directory) == ["todo.sqlite"])
      }
    }
  }

  /// Proves that `--help` and `--version` into a closed standard output end with 74.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: [["--version"], ["--help"]]
  )
  func helpAndVersionIntoAClosedOutputEndWith74(_ arguments: [String]) async throws {
    try await withTemporaryDirectory { directory in
      let closed = try await Self.todo(arguments, in: directory, shell: #"exec "$@" >&-"#)
      #expect(closed.status == ExitStatus.ioError.rawValue, "\(closed.summary)")
      #expect(closed.errors.isEmpty, "\(closed.errorText)")
    }
  }
}
