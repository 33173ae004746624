import AppSupport
import AppTestSupport
import Foundation
import Testing

/// `todo … --record FILE`, then `todo … --replay FILE`, run as a user runs them (the built
/// executable): the replay prints byte for byte what the live run printed and leaves the
/// database byte for byte as it was; a recording that cannot be replayed is refused with one
/// line and its exit status.
@Suite struct TodoRecordReplayTests {
  static let executable = TodoExecutable.url

  /// Runs `todo` in `directory`; killed after 60 seconds.
  static func todo(
    _ arguments: [String],
    input: ChildInput = .text(""),
    in directory: URL
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the todo product first")
    let run = try await runChild(executable, arguments, input: input, in: directory)
    #expect(!run.timedOut && !run.signalled, "todo \(arguments): \(run.summary)")
    return run
  }

  /// The bytes of the database and of the files SQLite keeps beside it (its write-ahead log and
  /// shared memory), by name: what a write would change.
  static func databaseFiles(in directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in ["todo.sqlite", "todo.sqlite-wal", "todo.sqlite-shm"] {
      let url = directory.appendingPathComponent(name)
      if FileManager.default.fileExists(atPath: url.path) {
        files[name] = try Data(contentsOf: url)
      }
    }
    return files
  }

  /// A database with two tasks.
  static func seed(_ directory: URL, _ architecture: Architecture) async throws {
    for title in ["Buy milk", "Walk the dog"] {
      let run = try await todo(
        ["--db", "todo.sqlite", "--architecture", architecture.rawValue, "add", title],
        in: directory
      )
      #expect(run.succeeded, "\(run.summary)")
    }
  }

  /// Proves that a replayed shell session prints exactly what the live one printed.
  ///
  /// It says the same on standard error too, with standard input closed, the imported file gone
  /// and the database changed since: the lines typed, the imported bytes, the state read from
  /// the database and the outcome of every write come from the recording. The replay opens no
  /// database (its files are byte for byte unchanged) and writes no export.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func aReplayedShellSessionPrintsTheSameAndLeavesTheDatabaseUntouched(
    _ architecture: Architecture
  ) async throws {
    try await withTemporaryDirectory { directory in
      try await Self.seed(directory, architecture)
      try Data(#"[{"title": "Imported"}, {"title": "Done already", "done": true}]"#.utf8)
        .write(to: directory.appendingPathComponent("in.json"))
      let options = ["--db", "todo.sqlite", "--architecture", architecture.rawValue]
      let typed = """
        add "Buy eggs"
        bogus
        done 1
        done 9
        list --done
        import in.json
        export out.json
        undo
        help
        list
        mv 2 1

        search egg
        quit

        """
      let live = try await Self.todo(
        options + ["--record", "session.jsonl"],
        input: .text(typed),
        in: directory
      )
      // `bogus` is the first line that failed: not a command, 64.
      #expect(live.status == 64, "\(live.summary)")
      #expect(live.outputText.hasPrefix("added #3 \"Buy eggs\"\n"))
      #expect(live.outputText.contains("imported 2 tasks\n"))
      #expect(live.errorText.contains("no task has the id 9"))
      try FileManager.default.removeItem(at: directory.appendingPathComponent("in.json"))
      try FileManager.default.removeItem(at: directory.appendingPathComponent("out.json"))
      // Another run changes the database: the replay must not read it.
      let other = try await Self.todo(options + ["add", "Later"], in: directory)
      #expect(other.succeeded, "\(other.summary)")
      let stored = try Self.databaseFiles(in: directory)

      let replayed = try await Self.todo(
        options + ["--replay", "session.jsonl"],
        input: .closed,
        in: directory
      )
      #expect(replayed.status == live.status, "\(replayed.summary)")
      #expect(replayed.output == live.output)
      #expect(replayed.errors == live.errors)
      #expect(try Self.databaseFiles(in: directory) == stored)
      #expect(
        !FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.json").path)
      )
    }
  }

  /// Proves that every command that reads or changes the list replays to exactly what it
  /// printed live.
  ///
  /// Standard output, standard error and status are the same, a refused command's included,
  /// each replayed after all of them ran, from a database that has changed since it was
  /// recorded: the recording starts from the state the command read. The database files are
  /// byte for byte unchanged by the replays.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func aReplayOfEachCommandPrintsTheSameAndWritesNothing(
    _ architecture: Architecture
  ) async throws {
    try await withTemporaryDirectory { directory in
      try await Self.seed(directory, architecture)
      try Data(#"[{"title": "Imported"}]"#.utf8)
        .write(to: directory.appendingPathComponent("in.json"))
      let options = ["--db", "todo.sqlite", "--architecture", architecture.rawValue]
      let commands: [[String]] = [
        ["add", "Buy eggs"],
        ["list"],
        ["done", "1"],
        ["list", "--done", "--json"],
        ["edit", "2", "Walk the cat"],
        ["mv", "3", "--to", "1"],
        ["undone", "1"],
        ["rm", "2"],
        ["undo"],
        ["redo"],
        ["import", "in.json"],
        ["export", "out.json"],
        ["list", "--active", "--search", "EGG"],
        ["done", "42"],
      ]
      var lives: [ChildRun] = []
      for (index, command) in commands.enumerated() {
        let live = try await Self.todo(
          options + ["--record", "\(index).jsonl"] + command,
          in: directory
        )
        let refused = command == ["done", "42"]
        #expect(live.succeeded == !refused, "todo \(command): \(live.summary)")
        lives.append(live)
      }
      try FileManager.default.removeItem(at: directory.appendingPathComponent("in.json"))
      try FileManager.default.removeItem(at: directory.appendingPathComponent("out.json"))
      let stored = try Self.databaseFiles(in: directory)

      for (index, command) in commands.enumerated() {
        let replayed = try await Self.todo(
          options + ["--replay", "\(index).jsonl"] + command,
          input: .closed,
          in: directory
        )
        #expect(replayed.status == lives[index].status, "todo \(command): \(replayed.summary)")
        #expect(replayed.output == lives[index].output, "todo \(command)")
        #expect(replayed.errors == lives[index].errors, "todo \(command)")
      }
      #expect(try Self.databaseFiles(in: directory) == stored)
      #expect(
        !FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.json").path)
      )
    }
  }

  /// Proves that a recording that cannot be replayed is refused before anything runs, with the
  /// database untouched: a missing file with status 66; a corrupt one, one of another
  /// architecture, of another command (an `add` replayed as `list`) or of other arguments (an
  /// `add` of another title), with status 65 — each with one line on standard error naming the
  /// file and why; `--record` with `--replay` is a usage error (64).
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aBadRecordingIsRefusedWithOneLineAndItsExitStatus() async throws {
    try await withTemporaryDirectory { directory in
      try await Self.seed(directory, .store)
      let options = ["--db", "todo.sqlite"]
      let live = try await Self.todo(
        options + ["--record", "add.jsonl", "add", "Buy eggs"],
        in: directory
      )
      #expect(live.succeeded, "\(live.summary)")
      let text = try String(
        contentsOf: directory.appendingPathComponent("add.jsonl"),
        encoding: .utf8
      )
      var lines = text.split(separator: "\n").map(String.init)
      lines[2] = "not JSON"
      try Data((lines.joined(separator: "\n") + "\n").utf8)
        .write(to: directory.appendingPathComponent("corrupt.jsonl"))
      let stored = try Self.databaseFiles(in: directory)

      let cases: [(arguments: [String], status: Int32, message: String)] = [
        (["--replay", "none.jsonl", "add", "Buy eggs"], 66, "there is no such file"),
        (["--replay", "corrupt.jsonl", "add", "Buy eggs"], 65, "line 3: corrupt record"),
        (
          ["--architecture", "reactor", "--replay", "add.jsonl", "add", "Buy eggs"], 65,
          "it was recorded on the store architecture: replay it with --architecture store"
        ),
        (["--replay", "add.jsonl", "list"], 65, "it records `todo add`, not `todo list`"),
        (
          ["--replay", "add.jsonl", "add", "Buy milk"], 65,
          #"is the intent add(title: "Buy eggs"), and this run expects the intent "#
            + #"add(title: "Buy milk")"#
        ),
      ]
      for (arguments, status, message) in cases {
        let run = try await Self.todo(options + arguments, input: .closed, in: directory)
        #expect(run.status == status, "todo \(arguments): \(run.summary)")
        #expect(run.errorText.hasPrefix("todo: cannot replay "), "todo \(arguments)")
        #expect(run.errorText.contains(message), "todo \(arguments): \(run.errorText)")
        #expect(
          run.errorText.split(separator: "\n").count == 1,
          "todo \(arguments) said more than one line: \(run.errorText)"
        )
        #expect(run.output.isEmpty, "todo \(arguments) printed \(run.outputText)")
      }
      let both = try await Self.todo(
        options + ["--record", "other.jsonl", "--replay", "add.jsonl", "list"],
        in: directory
      )
      #expect(both.status == 64, "\(both.summary)")
      #expect(both.errorText.contains("--record and --replay exclude each other"))
      #expect(
        !FileManager.default.fileExists(
          atPath: directory.appendingPathComponent("other.jsonl").path
        )
      )
      #expect(try Self.databaseFiles(in: directory) == stored)
    }
  }
}
