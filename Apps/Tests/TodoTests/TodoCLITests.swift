import AppSupport
import Foundation
import Testing
import TodoCore

/// The `todo` executable, run as a user runs it: each command a process of its own.
@Suite struct TodoCLITests {
  /// Runs `todo --db todo.sqlite --architecture ARCH ARGUMENTS…` in `directory`.
  static func todo(
    _ arguments: String...,
    architecture: Architecture = .store,
    input: String = "",
    in directory: URL
  ) async throws -> TodoRun {
    try await TodoExecutable.run(
      ["--db", "todo.sqlite", "--architecture", architecture.rawValue] + arguments,
      input: input,
      in: directory
    )
  }

  /// The tasks `todo list --json` prints.
  static func tasks(in directory: URL) async throws -> [TodoTask] {
    let run = try await todo("list", "--json", in: directory)
    #expect(run.status == 0, "\(run.errors)")
    return try JSONDecoder().decode([TodoTask].self, from: Data(run.output.utf8))
  }

  @Test(arguments: Architecture.allCases)
  func commandsChangeTheListAcrossRuns(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      func todo(_ arguments: String...) async throws -> TodoRun {
        let run = try await TodoExecutable.run(
          ["--db", "todo.sqlite", "--architecture", architecture.rawValue] + arguments,
          in: directory
        )
        #expect(run.status == 0, "todo \(arguments): \(run.errors)")
        return run
      }
      #expect(try await todo("add", "Buy milk").output == "added #1 \"Buy milk\"\n")
      #expect(try await todo("add", "Walk the dog").output == "added #2 \"Walk the dog\"\n")
      _ = try await todo("add", "Write report")
      #expect(try await todo("done", "1").output == "done #1 \"Buy milk\"\n")
      #expect(try await todo("edit", "2", "Walk the cat").output == "edited #2 \"Walk the cat\"\n")
      #expect(
        try await todo("mv", "3", "--to", "1").output == "moved #3 \"Write report\" to position 1\n"
      )
      #expect(
        try await todo("list").output
          == "1. [ ] #3 Write report\n2. [x] #1 Buy milk\n3. [ ] #2 Walk the cat\n"
      )
      #expect(try await todo("list", "--done").output == "2. [x] #1 Buy milk\n")
      #expect(
        try await todo("list", "--active", "--search", "CAT").output == "3. [ ] #2 Walk the cat\n"
      )
      #expect(try await todo("rm", "1").output == "removed #1 \"Buy milk\"\n")
      // Changes nothing (not an undo step), and says how the task is.
      #expect(try await todo("undone", "2").output == "not done #2 \"Walk the cat\"\n")
      _ = try await todo("done", "3")
      _ = try await todo("done", "3")  // changes nothing: not an undo step
      #expect(try await Self.tasks(in: directory).map(\.done) == [true, false])
      // Undo and redo, each in a run of its own.
      #expect(try await todo("undo").output == "undid the change to #3 \"Write report\"\n")
      _ = try await todo("undo")
      #expect(
        try await Self.tasks(in: directory).map(\.title) == [
          "Write report", "Buy milk", "Walk the cat",
        ]
      )
      _ = try await todo("redo")
      #expect(try await Self.tasks(in: directory).map(\.title) == ["Write report", "Walk the cat"])
      _ = try await todo("export", "tasks.json")
      let exported = try Data(contentsOf: directory.appendingPathComponent("tasks.json"))
      #expect(try JSONDecoder().decode([TodoTask].self, from: exported).count == 2)
      #expect(try await todo("import", "tasks.json").output == "imported 2 tasks\n")
      #expect(try await Self.tasks(in: directory).map(\.id) == [3, 2, 4, 5])
    }
  }

  @Test func badInputFailsAndLosesNothing() async throws {
    try await withTemporaryDirectory { directory in
      _ = try await Self.todo("add", "Buy milk", in: directory)
      let before = try await Self.tasks(in: directory)
      func refused(_ arguments: String..., saying message: String) async throws {
        let run = try await TodoExecutable.run(["--db", "todo.sqlite"] + arguments, in: directory)
        #expect(run.status != 0, "todo \(arguments) succeeded")
        #expect(run.errors.contains(message), "todo \(arguments): \(run.errors)")
        #expect(try await Self.tasks(in: directory) == before)
      }
      try await refused("done", "42", saying: "no task has the id 42")
      try await refused("edit", "42", "x", saying: "no task has the id 42")
      try await refused("rm", "7", saying: "no task has the id 7")
      try await refused("mv", "7", "--to", "1", saying: "no task has the id 7")
      try await refused("add", "  ", saying: "a task needs a title")
      try await refused("edit", "1", "", saying: "a task needs a title")
      try await refused("mv", "1", "--to", "0", saying: "positions start at 1")
      try await refused("done", "one", saying: "one")
      try await refused("redo", saying: "nothing to redo")
      try await refused("import", "missing.json", saying: "cannot read missing.json")
      try Data(#"[{"title": "ok"}, {"title": 3}]"#.utf8)
        .write(to: directory.appendingPathComponent("bad.json"))
      try await refused("import", "bad.json", saying: #"task 2: "title" has the wrong type"#)
      try await refused("frobnicate", saying: "frobnicate")
    }
  }

  @Test func aDatabaseThatIsNotTodosIsLeftUntouched() async throws {
    try await withTemporaryDirectory { directory in
      let notes = directory.appendingPathComponent("notes.txt")
      try Data("Buy milk\n".utf8).write(to: notes)
      let run = try await TodoExecutable.run(
        ["--db", "notes.txt", "add", "x"],
        in: directory
      )
      #expect(run.status == 65)
      #expect(
        run.errors == "todo: notes.txt is a text file, not a Todo database; it was left untouched\n"
      )
      #expect(try Data(contentsOf: notes) == Data("Buy milk\n".utf8))
    }
  }

  @Test func interactiveSessionEndsWithItsInput() async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Self.todo(
        input: """
          add "Buy milk"
          add Walk the dog
          bogus
          done 1
          done 9
          list --done
          undo
          list

          """,
        in: directory
      )
      // The first line that failed is not a command: 64.
      #expect(run.status == 64)
      #expect(
        run.output
          == """
          added #1 "Buy milk"
          added #2 "Walk the dog"
          done #1 "Buy milk"
          1. [x] #1 Buy milk
          undid the change to #1 "Buy milk"
          1. [ ] #1 Buy milk
          2. [ ] #2 Walk the dog

          """
      )
      #expect(run.errors.contains(#"unknown command "bogus""#))
      #expect(run.errors.contains("no task has the id 9"))
    }
  }

  @Test func theDefaultDatabaseIsInTheDataDirectory() async throws {
    try await withTemporaryDirectory { directory in
      let process = try await TodoExecutable.run(
        ["add", "x"],
        in: directory,
        environment: ["XDG_DATA_HOME": directory.path]
      )
      #expect(process.status == 0, "\(process.errors)")
      #expect(
        FileManager.default.fileExists(
          atPath: directory.appendingPathComponent("cascade/todo.sqlite").path
        )
      )
    }
  }
}
