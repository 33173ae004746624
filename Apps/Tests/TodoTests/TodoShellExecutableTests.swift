import AppSupport
import AppTestSupport
import Foundation
import Testing
import TodoCore

/// The interactive `todo` session, run as a user runs it (the built executable): every command
/// says what it did (or nothing with `--quiet`), the session exits with the status of the first
/// line that failed, and at a terminal the prompt's line is ended at the end of input.
@Suite struct TodoShellExecutableTests {
  static let executable = TodoExecutable.url

  /// Runs `todo --db todo.sqlite --architecture ARCHITECTURE ARGUMENTS…` in `directory`.
  static func todo(
    _ arguments: [String],
    architecture: Architecture,
    input: ChildInput = .text(""),
    in directory: URL
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the todo product first")
    let run = try await runChild(
      executable,
      ["--db", "todo.sqlite", "--architecture", architecture.rawValue] + arguments,
      input: input,
      in: directory
    )
    #expect(!run.signalled && !run.timedOut, "todo \(arguments): \(run.summary)")
    return run
  }

  static let session = """
    add "Buy milk"
    add Walk the dog
    done 1
    undone 1
    toggle 2
    edit 2 Walk the cat
    mv 2 1
    rm 1
    undo
    redo
    export out.json
    import out.json
    list

    """

  /// Proves that each command of a session says what it did, with the ids and titles the
  /// database committed, and the session exits 0 with nothing on standard error.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func eachCommandSaysWhatItDid(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Self.todo(
        [],
        architecture: architecture,
        input: .text(Self.session),
        in: directory
      )
      #expect(run.succeeded, "\(run.summary)")
      #expect(run.errors.isEmpty)
      #expect(
        run.outputText == """
          added #1 "Buy milk"
          added #2 "Walk the dog"
          done #1 "Buy milk"
          not done #1 "Buy milk"
          done #2 "Walk the dog"
          edited #2 "Walk the cat"
          moved #2 "Walk the cat" to position 1
          removed #1 "Buy milk"
          undid the change to #1 "Buy milk"
          redid the change to #1 "Buy milk"
          exported 1 task
          imported 1 task
          1. [x] #2 Walk the cat
          2. [x] #3 Walk the cat

          """
      )
    }
  }

  /// Proves that `--quiet` (and `-q`) leaves out every acknowledgement, of a session and of a
  /// command, and nothing else: the list is printed.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func quietSaysNothingOnSuccess(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Self.todo(
        ["--quiet"],
        architecture: architecture,
        input: .text(Self.session),
        in: directory
      )
      #expect(run.succeeded, "\(run.summary)")
      #expect(run.outputText == "1. [x] #2 Walk the cat\n2. [x] #3 Walk the cat\n")
      for command in [["add", "x"], ["done", "4"], ["rm", "4"], ["undo"]] {
        let quiet = try await Self.todo(["-q"] + command, architecture: architecture, in: directory)
        #expect(quiet.succeeded, "todo -q \(command): \(quiet.summary)")
        #expect(quiet.output.isEmpty, "todo -q \(command): \(quiet.outputText)")
      }
    }
  }

  /// A session whose lines fail: the status it must exit with, and what it says on standard
  /// error.
  struct FailingSession: Sendable, CustomTestStringConvertible {
    var name: String
    var input: Data
    var status: Int32
    var errors: String
    /// What the lines that worked printed.
    var output: String

    var testDescription: String { name }
  }

  static let failingSessions: [FailingSession] = [
    FailingSession(
      name: "a refused command first",
      input: Data("add a\ndone 9\nbogus\nadd b\n".utf8),
      status: 1,
      errors: "todo: no task has the id 9\ntodo: unknown command \"bogus\"; type help\n",
      output: "added #1 \"a\"\nadded #2 \"b\"\n"
    ),
    FailingSession(
      name: "a line that is not a command first",
      input: Data("add a\nmv 1\nundo\nundo\n".utf8),
      status: 64,
      errors: "todo: usage: mv ID POSITION (positions start at 1)\ntodo: nothing to undo\n",
      output: "added #1 \"a\"\nundid the change to #1 \"a\"\n"
    ),
    FailingSession(
      name: "a line that is not UTF-8 first",
      input: Data([0x61, 0x64, 0x64, 0x20, 0xFF, 0x0A]) + Data("add b\nrm 7\nquit\nadd c\n".utf8),
      status: 65,
      errors: "todo: line 1 of standard input is not valid UTF-8; it was ignored\n"
        + "todo: no task has the id 7\n",
      output: "added #1 \"b\"\n"
    ),
  ]

  /// Proves that a session goes on after a line fails, runs every line to the end of its input
  /// (or `quit`), and exits with the status of the first line that failed.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: failingSessions,
    Architecture.allCases
  )
  func theSessionExitsWithTheFirstFailure(
    _ session: FailingSession,
    _ architecture: Architecture
  ) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Self.todo(
        [],
        architecture: architecture,
        input: .bytes(session.input),
        in: directory
      )
      #expect(run.status == session.status, "\(run.summary)")
      #expect(run.errorText == session.errors)
      #expect(run.outputText == session.output)
    }
  }

  /// Proves that at a terminal the session prompts, and ends the prompt's line when the input
  /// ends (Ctrl-D), so that the shell's own prompt starts on a line of its own.
  @Test(
    .enabled(if: executable != nil, "the todo executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func thePromptEndsWithANewlineAtTheEndOfInput(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      // Ctrl-D at the start of a line: the end of input at a terminal.
      let run = try await runChild(
        try #require(Self.executable),
        ["--db", "todo.sqlite", "--architecture", architecture.rawValue],
        input: .terminal(typing: "add Buy milk\n\u{4}"),
        in: directory
      )
      #expect(run.succeeded, "\(run.summary)")
      #expect(
        run.outputText == """
          todo on todo.sqlite; type help
          todo> added #1 "Buy milk"
          todo> \n
          """
      )
    }
  }
}
