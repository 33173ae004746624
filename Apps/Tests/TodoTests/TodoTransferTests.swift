import Foundation
import Testing
import TodoCore

/// Import and export files: a malformed file is refused as a whole, with a message saying where.
@Suite struct TodoTransferTests {
  @Test func exportThenImportRoundTrips() throws {
    let tasks = [
      TodoTask(id: 3, title: "Buy milk", done: true, position: 0),
      TodoTask(id: 1, title: "Walk the dog", position: 1),
    ]
    let drafts = try TodoTransfer.drafts(from: TodoTransfer.export(tasks))
    #expect(drafts == [TodoDraft(title: "Buy milk", done: true), TodoDraft(title: "Walk the dog")])
  }

  @Test func importIgnoresExtraKeysAndDefaultsDone() throws {
    let json = #"[{"title": "a", "id": 9, "colour": "red"}, {"title": "b", "done": null}]"#
    #expect(
      try TodoTransfer.drafts(from: Data(json.utf8)) == [
        TodoDraft(title: "a"), TodoDraft(title: "b"),
      ]
    )
    #expect(try TodoTransfer.drafts(from: Data("[]".utf8)) == [])
  }

  @Test(arguments: [
    ("", "the file is not valid JSON"),
    ("[{\"title\": \"a\"", "the file is not valid JSON"),
    ("not json", "the file is not valid JSON"),
    (#"{"title": "a"}"#, "the file must hold a JSON array of tasks"),
    (#""a""#, "the file must hold a JSON array of tasks"),
    (#"[{"title": "a"}, {"done": true}]"#, #"task 2: "title" is missing"#),
    (#"[{"title": 7}]"#, #"task 1: "title" has the wrong type"#),
    (#"[{"title": "a", "done": "yes"}]"#, #"task 1: "done" has the wrong type"#),
    (#"[{"title": "a", "done": 1}]"#, #"task 1: "done" has the wrong type"#),
    (#"[{"title": "  "}]"#, "task 1 has an empty title"),
    (#"["a"]"#, #"task 1 has the wrong type: it must be an object with a "title""#),
  ])
  func malformedImportsAreRefused(json: String, message: String) {
    #expect(throws: TodoTransfer.Failure(description: message)) {
      try TodoTransfer.drafts(from: Data(json.utf8))
    }
  }
}
