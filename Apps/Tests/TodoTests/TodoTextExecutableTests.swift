import AppSupport
import AppTestSupport
import CascadeStreams
import Foundation
import GRDB
import Testing
import TodoCore

/// What `todo` reads and writes as text, run as a user runs it (the built executable): input
/// that is not UTF-8 is refused, control characters are shown escaped and stored exactly,
/// numbers are checked, a closed output ends the run quietly with 74, and `--version` and
/// `--help` say what they must.
@Suite struct TodoTextExecutableTests {
  static let executable = TodoExecutable.url

  /// Runs `todo --db todo.sqlite ARGUMENTS…` in `directory`.
  static func todo(
    _ arguments: [String],
    input: ChildInput = .text(""),
    shell: String? = nil,
    in directory: URL
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the todo product first")
    let run = try await runChild(
      executable,
      ["--db", "todo.sqlite"] + arguments,
      input: input,
      in: directory,
      shell: shell
    )
    #expect(!run.signalled && !run.timedOut, "todo \(arguments): \(run.summary)")
    return run
  }

  /// A directory with `todo.sqlite` holding two tasks; gives its URL.
  static func withDatabase(_ body: (URL, URL) async throws -> Void) async throws {
    try await withTemporaryDirectory { directory in
      for title in ["Buy milk", "Walk the dog"] {
        let run = try await todo(["add", title], in: directory)
        #expect(run.succeeded, "\(run.summary)")
      }
      try await body(directory, directory.appendingPathComponent("todo.sqlite"))
    }
  }

  /// Proves that an argument that is not UTF-8 — a title, a command's name, the database's
  /// path — is refused with 65 and one line naming it, before anything is opened or changed.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func anArgumentThatIsNotUTF8IsRefused() async throws {
    try await Self.withDatabase { directory, database in
      let before = try Data(contentsOf: database)
      let cases: [(script: String, argument: Int)] = [
        (#"p="$1"; shift; exec "$p" "$@" add "$(printf 'A\377B')""#, 4),
        (#"p="$1"; shift; exec "$p" "$@" "$(printf 'l\303ist')""#, 3),
        (#"p="$1"; shift; exec "$p" --db "$(printf 'x\377.sqlite')" list"#, 2),
      ]
      for (script, argument) in cases {
        let run = try await Self.todo([], shell: script, in: directory)
        #expect(run.status == 65, "\(script): \(run.summary)")
        #expect(
          run.errorText == "todo: argument \(argument) is not valid UTF-8; nothing was done\n",
          "\(script)"
        )
        #expect(run.output.isEmpty)
        #expect(try Data(contentsOf: database) == before)
      }
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
          == ["todo.sqlite"]
      )
    }
  }

  /// Proves that a line of standard input that is not UTF-8 is refused (65, one line naming it)
  /// and changes nothing.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func aLineThatIsNotUTF8ChangesNothing(_ architecture: Architecture) async throws {
    try await Self.withDatabase { directory, database in
      let before = try Data(contentsOf: database)
      let run = try await Self.todo(
        ["--architecture", architecture.rawValue],
        input: .bytes(Data("add Caf".utf8) + Data([0xE9, 0x0A])),
        in: directory
      )
      #expect(run.status == 65, "\(run.summary)")
      #expect(
        run.errorText == "todo: line 1 of standard input is not valid UTF-8; it was ignored\n"
      )
      #expect(run.output.isEmpty)
      #expect(try Data(contentsOf: database) == before)
    }
  }

  /// Proves that a title is stored exactly as typed, control characters and all, shown with
  /// them escaped in text (so it stays on its line and sends nothing to the terminal), and
  /// exactly in `--json`.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func controlCharactersAreShownEscapedAndStoredExactly(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      let options = ["--architecture", architecture.rawValue]
      let title = "Evil\u{1B}[2J\nfake line\t\u{7}\\end\u{202E}"
      let shown = #"Evil\u{1B}[2J\nfake line\t\u{7}\\end\u{202E}"#
      let added = try await Self.todo(options + ["add", title], in: directory)
      #expect(added.succeeded, "\(added.summary)")
      #expect(added.outputText == "added #1 \"\(shown)\"\n")
      let typed = try await Self.todo(options, input: .text("add Bell\u{7}\n"), in: directory)
      #expect(typed.outputText == "added #2 \"Bell\\u{7}\"\n")

      let list = try await Self.todo(options + ["list"], in: directory)
      #expect(list.outputText == "1. [ ] #1 \(shown)\n2. [ ] #2 Bell\\u{7}\n")
      let json = try await Self.todo(options + ["list", "--json"], in: directory)
      let tasks = try JSONDecoder().decode([TodoTask].self, from: json.output)
      #expect(tasks.map(\.title) == [title, "Bell\u{7}"])

      let queue = try DatabaseQueue(path: directory.appendingPathComponent("todo.sqlite").path)
      let stored = try await queue.read { db in
        try String.fetchAll(db, sql: "SELECT title FROM task ORDER BY id")
      }
      try queue.close()
      #expect(stored == [title, "Bell\u{7}"])

      let refused = try await Self.todo(options + ["done", "9"], input: .text(""), in: directory)
      #expect(refused.errorText == "todo: no task has the id 9\n")
      let unknown = try await Self.todo(options, input: .text("fr\u{1B}b\n"), in: directory)
      #expect(unknown.errorText == "todo: unknown command \"fr\\u{1B}b\"; type help\n")
    }
  }

  /// Proves that every number on the command line is checked: an id or a position out of range,
  /// not a number, not finite or too large is refused with 64 and a line naming it, changing
  /// nothing.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func numbersAreChecked() async throws {
    try await Self.withDatabase { directory, database in
      let before = try Data(contentsOf: database)
      let cases: [([String], String)] = [
        (["done", "0"], "<id> must be between 1 and 9223372036854775807, not 0"),
        (["rm", "--", "-4"], "<id> must be between 1 and 9223372036854775807, not -4"),
        (["edit", "0", "x"], "<id> must be between 1 and 9223372036854775807, not 0"),
        (["done", "nan"], "nan"),
        (["done", "inf"], "inf"),
        (["done", "1e3"], "1e3"),
        (["done", "99999999999999999999"], "99999999999999999999"),
        (
          ["mv", "1", "--to", "0"],
          "--to (positions start at 1) must be between 1 and 9223372036854775807, not 0"
        ),
        (["mv", "1", "--to", "-1"], "--to"),
        (["mv", "1", "--to", "NaN"], "NaN"),
        (["mv", "1", "--to", "99999999999999999999"], "99999999999999999999"),
      ]
      for (arguments, message) in cases {
        let run = try await Self.todo(arguments, in: directory)
        #expect(run.status == 64, "todo \(arguments): \(run.summary)")
        #expect(run.errorText.hasPrefix("Error: "), "todo \(arguments): \(run.errorText)")
        #expect(run.errorText.contains(message), "todo \(arguments): \(run.errorText)")
        #expect(run.output.isEmpty)
        #expect(try Data(contentsOf: database) == before)
      }
    }
  }

  /// Proves that output to a pipe nobody reads (`todo list | head -0`) ends the run with 74 and
  /// nothing on standard error, as `cat` does, leaving the database unchanged.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func aClosedOutputEndsTheRunQuietlyWith74() async throws {
    try await Self.withDatabase { directory, database in
      let before = try Data(contentsOf: database)
      for arguments in [["list"], ["list", "--json"], ["export", "out.json"], ["--version"]] {
        let run = try await runChild(
          try #require(Self.executable),
          ["--db", "todo.sqlite"] + arguments,
          output: .closedPipe,
          in: directory
        )
        #expect(!run.signalled, "todo \(arguments) was killed by a signal")
        #expect(run.status == 74, "todo \(arguments): \(run.summary)")
        #expect(run.errors.isEmpty, "todo \(arguments): \(run.errorText)")
        #expect(try Data(contentsOf: database) == before)
      }
    }
  }

  /// Proves that `--version` prints the package's version, and that `--help` (of `todo` and of
  /// its commands) lists the exit codes.
  @Test(.enabled(if: executable != nil, "the todo executable was not found next to the tests"))
  func versionAndExitCodesAreShown() async throws {
    try await withTemporaryDirectory { directory in
      let version = try await Self.todo(["--version"], in: directory)
      #expect(version.succeeded)
      #expect(version.outputText == "\(CascadeVersion.current)\n")
      for arguments in [["--help"], ["shell", "--help"], ["add", "--help"]] {
        let help = try await Self.todo(arguments, in: directory)
        #expect(help.succeeded, "todo \(arguments): \(help.summary)")
        for status in ExitStatus.allCases {
          #expect(help.outputText.contains("\(status)"), "todo \(arguments) lacks \(status)")
        }
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
  }
}
