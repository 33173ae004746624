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

/// The `todo` executable against hostile input and failing storage: each refusal is a message on
/// standard error and a non-zero exit by the program itself (never a signal, never a hang), and
/// the database holds exactly what it held (tasks and undo history).
@Suite struct TodoBadInputTests {
  static let executable = TodoExecutable.url

  /// Runs `todo` in `directory`; killed after 60 seconds.
  static func todo(
    _ arguments: [String],
    input: ChildInput = .text(""),
    shell: String? = nil,
    in directory: URL
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the todo product first")
    return try await runChild(executable, arguments, input: input, in: directory, shell: shell)
  }

  /// Everything the database holds that a command could change: tasks and undo history.
  static func contents(of path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    return try queue.read { db in
      try Row.fetchAll(db, sql: "SELECT id, title, done, position FROM task ORDER BY id")
        .map { "task \($0)" }
        + Row.fetchAll(db, sql: "SELECT seq, undone, changes FROM history ORDER BY seq")
        .map { "history \($0)" }
    }
  }

  /// A directory with `todo.sqlite` holding two tasks, one done.
  static func withDatabase(_ body: (URL, String) async throws -> Void) async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("todo.sqlite").path
      for arguments in [["add", "Buy milk"], ["add", "Walk the dog"], ["done", "1"]] {
        let run = try await todo(["--db", path] + arguments, in: directory)
        #expect(run.succeeded, "\(run.summary)")
      }
      try await body(directory, path)
    }
  }

  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func refusedCommandLinesLeaveTheDatabaseUntouched() async throws {
    try await Self.withDatabase { directory, path in
      let before = try Self.contents(of: path)
      let cases: [([String], String)] = [
        (["frobnicate"], "frobnicate"),
        (["add"], "<title>"),
        (["add", "x", "y"], "y"),
        (["add", "--bogus", "x"], "--bogus"),
        (["add", ""], "a task needs a title"),
        (["add", "\u{3000}\t"], "a task needs a title"),
        (["list", "--done", "--active"], "exclude each other"),
        (["list", "--search"], "--search"),
        (["--architecture", "mvc", "list"], "mvc"),
        (["--architecture", "", "list"], "architecture"),
        (["done"], "<id>"),
        (["done", "-1"], "<id>"),
        (["done", "0"], "<id> must be between 1 and"),
        (["done", "1.5"], "1.5"),
        (["done", "99999999999999999999"], "99999999999999999999"),
        (["done", ""], "id"),
        (["done", "💥"], "💥"),
        (["rm", "9223372036854775807"], "no task has the id 9223372036854775807"),
        (["edit", "2"], "<title>"),
        (["edit", "2", " "], "a task needs a title"),
        (["mv", "2", "--to", "-3"], "--to"),
        (["mv", "2", "--to", "0"], "positions start at 1"),
        (["mv", "2"], "--to"),
        (["undo", "now"], "now"),
        (["import", ""], "cannot read"),
        (["import", directory.path], "cannot read"),
        (["export", "/proc/cascade-todo-export.json"], "cannot write"),
      ]
      for (arguments, message) in cases {
        let run = try await Self.todo(["--db", path] + arguments, in: directory)
        #expect(run.refusedCleanly, "todo \(arguments): \(run.summary)")
        #expect(run.errorText.contains(message), "todo \(arguments): \(run.errorText)")
        #expect(try Self.contents(of: path) == before, "todo \(arguments) changed the database")
      }
    }
  }

  /// `--db ""` names no file: refused, rather than writing to a temporary database that
  /// vanishes with the process.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func anEmptyDatabasePathIsRefused() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Self.todo(["--db", "", "add", "Buy milk"], in: directory)
      #expect(run.refusedCleanly, "\(run.summary)")
      #expect(run.errorText.contains("--db"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
  }

  /// A 100 KB title is stored whole, from an argument and from an interactive line.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aVeryLongTitleIsStoredWhole() async throws {
    try await Self.withDatabase { directory, path in
      let title = String(repeating: "ü", count: 50_000)  // 100 KB of UTF-8
      let added = try await Self.todo(["--db", path, "add", title], in: directory)
      #expect(added.succeeded, "\(added.summary)")
      let typed = try await Self.todo(
        ["--db", path],
        input: .text("add \(title)x\n"),
        in: directory
      )
      #expect(typed.succeeded, "\(typed.summary)")
      let listed = try await Self.todo(["--db", path, "list", "--json"], in: directory)
      let tasks = try JSONDecoder().decode([TodoTask].self, from: listed.output)
      #expect(tasks.map(\.title).suffix(2) == [title, title + "x"])
    }
  }

  /// Bytes that are not UTF-8 never crash `todo`: in an argument (refused), a file to import
  /// (refused whole), or the interactive input (the line is ignored, the session goes on to the
  /// end of its input and exits with 65).
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func bytesThatAreNotUTF8AreHandled() async throws {
    try await Self.withDatabase { directory, path in
      let argument = try await Self.todo(
        ["--db", path],
        shell: #"p="$1"; shift; exec "$p" "$@" add "$(printf 'A\377\376B')""#,
        in: directory
      )
      #expect(argument.refusedCleanly && argument.status == 65, "\(argument.summary)")
      let before = try Self.contents(of: path)

      let file = directory.appendingPathComponent("tasks.json")
      try (Data(#"[{"title": ""#.utf8) + Data([0xFF, 0xFE]) + Data(#""}]"#.utf8)).write(to: file)
      let imported = try await Self.todo(["--db", path, "import", file.path], in: directory)
      #expect(imported.refusedCleanly, "\(imported.summary)")
      #expect(imported.errorText.contains("cannot import"))
      #expect(try Self.contents(of: path) == before)

      let typed = try await Self.todo(
        ["--db", path],
        input: .bytes(Data([0xFF, 0xFE, 0x0A, 0xC3, 0x0A]) + Data("done 99\n\u{0}\nlist\n".utf8)),
        in: directory
      )
      #expect(typed.status == 65, "\(typed.summary)")
      #expect(typed.errorText.contains("line 1 of standard input is not valid UTF-8"))
      #expect(typed.errorText.contains("unknown command"))
      #expect(typed.errorText.contains("no task has the id 99"))
      #expect(!typed.errorText.contains("ExitCode"), "a refusal is reported once, in words")
      #expect(typed.outputText.contains("#2 Walk the dog"))
      #expect(try Self.contents(of: path) == before)
    }
  }

  /// The interactive session with standard input closed (not just empty) ends cleanly.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func closedStandardInputEndsTheSessionCleanly() async throws {
    try await Self.withDatabase { directory, path in
      let before = try Self.contents(of: path)
      for arguments in [["--db", path], ["--db", path, "shell"]] {
        let run = try await Self.todo(arguments, input: .closed, in: directory)
        #expect(run.succeeded, "todo \(arguments): \(run.summary)")
        #expect(run.errorText.isEmpty, "todo \(arguments): \(run.errorText)")
      }
      #expect(try Self.contents(of: path) == before)
    }
  }

  /// A location that cannot be written is reported with the path, and nothing is written.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func anUnwritableLocationIsReported() async throws {
    try await withTemporaryDirectory { directory in
      // Even root cannot create files in /proc: this case runs for everyone.
      for path in ["/proc/cascade-todo.sqlite", "/proc/self/cascade/todo.sqlite"] {
        let run = try await Self.todo(["--db", path, "add", "Buy milk"], in: directory)
        #expect(run.refusedCleanly, "--db \(path): \(run.summary)")
        #expect(run.errorText.contains(path), "--db \(path): \(run.errorText)")
        #expect(!FileManager.default.fileExists(atPath: path))
      }
    }
    // Root ignores file permissions, so the read-only directory and file below would be
    // written anyway: those cases only mean something for another user (the /proc cases
    // above already proved the report).
    guard geteuid() != 0 else { return }
    try await Self.withDatabase { directory, path in
      let before = try Self.contents(of: path)
      let readOnly = directory.appendingPathComponent("locked", isDirectory: true)
      try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
      chmod(readOnly.path, 0o555)
      defer { chmod(readOnly.path, 0o755) }
      let inLocked = readOnly.appendingPathComponent("todo.sqlite").path
      let created = try await Self.todo(["--db", inLocked, "add", "x"], in: directory)
      #expect(created.refusedCleanly, "\(created.summary)")
      #expect(created.errorText.contains(inLocked))

      chmod(path, 0o444)
      defer { chmod(path, 0o644) }
      let written = try await Self.todo(["--db", path, "add", "x"], in: directory)
      #expect(written.refusedCleanly, "\(written.summary)")
      #expect(written.errorText.contains("readonly") || written.errorText.contains(path))
      chmod(path, 0o644)
      #expect(try Self.contents(of: path) == before)
    }
  }

  /// What a running `todo` printed, read as it prints it.
  struct Printed: Sendable {
    var output = Data()
    /// The complete lines in ``output``.
    var lines = 0
    /// Whether the output ended (end of file: the process and every copy of the pipe are gone).
    var ended = false
    /// Whether the process exited.
    var exited = false

    /// The complete lines printed.
    var acknowledgements: [Substring] {
      String(decoding: output, as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }
  }

  /// Reads `handle` to its end on a thread of its own (not the cooperative pool), adding what
  /// comes to `printed` as it comes.
  static func readToEnd(_ handle: FileHandle, into printed: Watched<Printed>) {
    let descriptor = handle.fileDescriptor
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        let chunk = buffer[..<count]
        printed.update {
          $0.output.append(contentsOf: chunk)
          $0.lines += chunk.lazy.filter { $0 == UInt8(ascii: "\n") }.count
        }
      }
      printed.update { $0.ended = true }
      _ = handle  // keeps the descriptor open until the end
    }
    thread.start()
  }

  /// `todo` killed (SIGKILL) in the middle of a burst of writes: the database opens, passes
  /// SQLite's integrity check, and holds every task whose `added` acknowledgement was printed
  /// (at most one more: written, not yet acknowledged).
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aKillMidBurstKeepsEveryAcknowledgedTask() async throws {
    let executable = try #require(Self.executable)
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("todo.sqlite").path
      let count = 20_000
      let inputFile = directory.appendingPathComponent("burst.in")
      try Data((1...count).map { "add burst \($0)\n" }.joined().utf8).write(to: inputFile)
      let process = Process()
      process.executableURL = executable
      process.arguments = ["--db", path]
      process.currentDirectoryURL = directory
      let input = try FileHandle(forReadingFrom: inputFile)
      defer { try? input.close() }
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      // What `todo` printed so far, whether its output ended, and whether it exited: the waits
      // below wake on these changes, never on the clock.
      let printed = Watched(Printed())
      process.terminationHandler = { _ in printed.update { $0.exited = true } }
      try process.run()
      Self.readToEnd(output.fileHandleForReading, into: printed)

      // Kill once 200 tasks are acknowledged (or once it exited by itself, which fails below).
      let acknowledgedEnough = await printed.wait(timeout: .seconds(120)) {
        $0.lines >= 200 || $0.exited
      }
      #expect(acknowledgedEnough, "todo printed \(printed.value.lines) acknowledgements")
      if !printed.value.exited { kill(process.processIdentifier, SIGKILL) }
      // It has exited and everything it printed has been read (the pipe ended).
      #expect(await printed.wait { $0.exited && $0.ended })
      process.waitUntilExit()  // returns at once: it has exited
      #expect(process.terminationReason == .uncaughtSignal, "todo ended before it was killed")

      let acknowledgements = printed.value.acknowledgements
      #expect(acknowledgements.count >= 200)
      for (index, line) in acknowledgements.enumerated() {
        #expect(line == "added #\(index + 1) \"burst \(index + 1)\"")
      }

      let queue = try DatabaseQueue(path: path)
      let (check, titles) = try await queue.read { db in
        (
          try String.fetchAll(db, sql: "PRAGMA integrity_check"),
          try String.fetchAll(db, sql: "SELECT title FROM task ORDER BY position")
        )
      }
      #expect(check == ["ok"])
      #expect(titles.count >= acknowledgements.count)
      #expect(titles.count <= acknowledgements.count + 1)
      #expect(titles == (0..<titles.count).map { "burst \($0 + 1)" })
      try queue.close()

      // And `todo` goes on with it.
      let next = try await Self.todo(["--db", path, "add", "after"], in: directory)
      #expect(next.succeeded, "\(next.summary)")
      #expect(next.outputText == "added #\(titles.count + 1) \"after\"\n")
    }
  }
}
