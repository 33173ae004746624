import Testing
import TodoCore

/// The interactive session's parser: a pure function from a line to a command.
@Suite struct TodoCommandLineTests {
  @Test(arguments: [
    ("add Buy milk", TodoCommand.intent(.add(title: "Buy milk"))),
    (#"add "Buy  milk""#, .intent(.add(title: "Buy  milk"))),
    ("add don't panic", .intent(.add(title: "don't panic"))),
    (#"edit 3 "Walk the dog""#, .intent(.edit(id: 3, title: "Walk the dog"))),
    ("done 2", .intent(.setDone(id: 2, true))),
    ("undone 2", .intent(.setDone(id: 2, false))),
    ("toggle 4", .intent(.toggle(id: 4))),
    ("rm 5", .intent(.delete(id: 5))),
    ("mv 5 1", .intent(.move(id: 5, to: 0))),
    ("mv 5 --to 3", .intent(.move(id: 5, to: 2))),
    ("undo", .intent(.undo)),
    ("REDO", .intent(.redo)),
    ("list", .list(filter: .all, search: "")),
    ("ls --done --search milk", .list(filter: .done, search: "milk")),
    ("list --active", .list(filter: .active, search: "")),
    ("search buy", .intent(.search("buy"))),
    ("import tasks.json", .importFile("tasks.json")),
    (#"export "my tasks.json""#, .exportFile("my tasks.json")),
    ("help", .help),
    ("quit", .quit),
    ("   ", .nothing),
  ])
  func parses(line: String, command: TodoCommand) throws {
    #expect(try TodoCommandLine.parse(line) == command)
  }

  @Test(arguments: [
    ("frobnicate", #"unknown command "frobnicate"; type help"#),
    ("add", "usage: add TEXT (the text cannot be empty)"),
    (#"add """#, "usage: add TEXT (the text cannot be empty)"),
    ("done", "usage: done ID"),
    ("done x", #""x" is not a task id"#),
    ("done 0", #""0" is not a task id"#),
    ("done 1 2", "usage: done ID"),
    ("mv 1", "usage: mv ID POSITION (positions start at 1)"),
    ("mv 1 --to 0", "usage: mv ID POSITION (positions start at 1)"),
    ("edit 1", "usage: edit ID TEXT (the text cannot be empty)"),
    ("undo now", "usage: undo"),
    ("list --everything", "usage: list [--done|--active|--all] [--search TEXT]"),
    ("list --search", "--search needs a text"),
    (#"add "unclosed"#, "a quote is not closed"),
    ("import", "usage: import FILE"),
  ])
  func refuses(line: String, message: String) {
    #expect(throws: TodoCommandLineError(description: message)) {
      try TodoCommandLine.parse(line)
    }
  }
}
