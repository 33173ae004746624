// swift-format-ignore-file
// Generated from the recording todo-shell-feedback.jsonl (`todo shell`, on the feedback) by
// `cascade-inspect Apps/Tests/Recordings/todo-shell-feedback.jsonl --export-test Apps/Tests/TodoTests/Recorded/TodoShellFeedbackRecordingTests.swift`
// Do not edit it: make it again from the recording.
import AppSupport
import CascadeFeedback
import CascadeReactor
import CascadeStore
import CascadeTesting
import Testing

@testable import TodoCore

/// `todo shell`, recorded on the feedback, replayed through the exhaustive
/// `TestStore`: one line per record of the recording (its number after `#`), each
/// received input with the change of state it made; the effects answer with their
/// recorded outcomes, each released at the record that holds it.
@Suite struct TodoShellFeedbackRecordingTests {
  @Test func replaysTheRecordingStepByStep() async throws {
    let effects = try RecordedEffects<TodoCore.TodoWriteResult>(json: [
      (record: 7, key: 1, outcome: #"{"commit":{"tasks":[{"done":false,"id":3,"position":2,"title":"Write report"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":1}"#),
      (record: 13, key: 2, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":2}"#),
      (record: 18, key: 3, outcome: #"{"commit":{"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":3}"#),
      (record: 24, key: 4, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":4}"#),
      (record: 29, key: 5, outcome: #"{"commit":{"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":5}"#),
      (record: 35, key: 6, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":6}"#),
      (record: 40, key: 7, outcome: #"{"commit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"writeID":7}"#),
      (record: 46, key: 8, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"writeID":8}"#),
      (record: 51, key: 9, outcome: #"{"commit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"snapshot":{"canRedo":true,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":9}"#),
      (record: 57, key: 10, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":true,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":10}"#),
      (record: 62, key: 11, outcome: #"{"commit":{"tasks":[{"done":true,"id":1,"position":1,"title":"Buy milk"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}]},"writeID":11}"#),
      (record: 78, key: 12, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}]},"writeID":12}"#),
    ])
    let start = try RecordedJSON<TodoCore.TodoState>.decode(#"{"canRedo":false,"canUndo":true,"filter":"all","intentsHandled":0,"nextID":3,"pendingWrites":[],"searchText":"","tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"}],"writesIssued":0}"#)
    let service = TodoCore.TodoApp.feedback.service(
      TodoCore.TodoApp.testEnvironment(start: start, effects: effects)
    )
    let app: any AppService<TodoCore.TodoApp.Intent, TodoCore.TodoApp.State> = service
    let store = TestStore(loop: service.container)
    let intent = RecordedJSON<TodoCore.TodoApp.Intent>.decode
    let input = RecordedJSON<TodoCore.TodoEvent>.decode
    let patch = StatePatch<TodoCore.TodoState>.apply

    app.send(try intent(#"{"add":{"title":"Write report"}}"#))  // #4
    try await store.receive(input(#"{"intent":{"_0":{"add":{"title":"Write report"}}}}"#), assert: patch(#"{"intentsHandled":1,"nextID":4,"pendingWrites":[{"id":1,"operation":{"add":{"title":"Write report"}}}],"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}],"writesIssued":1}"#))  // #5
    effects.release(7)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[{"done":false,"id":3,"position":2,"title":"Write report"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":1}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":false,"id":3,"position":2,"title":"Write report"}]},"pendingWrites":[]}"#))  // #7
    app.send(try intent(#"{"reload":{}}"#))  // #10
    try await store.receive(input(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":2,"lastCommit":null,"pendingWrites":[{"id":2,"operation":{"reload":{}}}],"writesIssued":2}"#))  // #11
    effects.release(13)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":2}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #13
    app.send(try intent(#"{"setDone":{"_1":true,"id":1}}"#))  // #15
    try await store.receive(input(#"{"intent":{"_0":{"setDone":{"_1":true,"id":1}}}}"#), assert: patch(#"{"intentsHandled":3,"lastCommit":null,"pendingWrites":[{"id":3,"operation":{"setDone":{"_1":true,"id":1}}}],"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}],"writesIssued":3}"#))  // #16
    effects.release(18)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":3}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"}]},"pendingWrites":[]}"#))  // #18
    app.send(try intent(#"{"reload":{}}"#))  // #21
    try await store.receive(input(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":4,"lastCommit":null,"pendingWrites":[{"id":4,"operation":{"reload":{}}}],"writesIssued":4}"#))  // #22
    effects.release(24)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":4}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #24
    app.send(try intent(#"{"move":{"id":3,"to":0}}"#))  // #26
    try await store.receive(input(#"{"intent":{"_0":{"move":{"id":3,"to":0}}}}"#), assert: patch(#"{"intentsHandled":5,"lastCommit":null,"pendingWrites":[{"id":5,"operation":{"move":{"id":3,"to":0}}}],"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}],"writesIssued":5}"#))  // #27
    effects.release(29)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":5}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"}]},"pendingWrites":[]}"#))  // #29
    app.send(try intent(#"{"reload":{}}"#))  // #32
    try await store.receive(input(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":6,"lastCommit":null,"pendingWrites":[{"id":6,"operation":{"reload":{}}}],"writesIssued":6}"#))  // #33
    effects.release(35)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":6}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #35
    app.send(try intent(#"{"edit":{"id":2,"title":"Walk the dog"}}"#))  // #37
    try await store.receive(input(#"{"intent":{"_0":{"edit":{"id":2,"title":"Walk the dog"}}}}"#), assert: patch(#"{"intentsHandled":7,"lastCommit":null,"pendingWrites":[{"id":7,"operation":{"edit":{"id":2,"title":"Walk the dog"}}}],"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}],"writesIssued":7}"#))  // #38
    effects.release(40)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"writeID":7}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"pendingWrites":[]}"#))  // #40
    app.send(try intent(#"{"reload":{}}"#))  // #43
    try await store.receive(input(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":8,"lastCommit":null,"pendingWrites":[{"id":8,"operation":{"reload":{}}}],"writesIssued":8}"#))  // #44
    effects.release(46)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"writeID":8}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #46
    app.send(try intent(#"{"undo":{}}"#))  // #48
    try await store.receive(input(#"{"intent":{"_0":{"undo":{}}}}"#), assert: patch(#"{"intentsHandled":9,"lastCommit":null,"pendingWrites":[{"id":9,"operation":{"undo":{}}}],"writesIssued":9}"#))  // #49
    effects.release(51)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"snapshot":{"canRedo":true,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":9}}}"#), assert: patch(#"{"canRedo":true,"lastCommit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"pendingWrites":[],"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]}"#))  // #51
    app.send(try intent(#"{"reload":{}}"#))  // #54
    try await store.receive(input(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":10,"lastCommit":null,"pendingWrites":[{"id":10,"operation":{"reload":{}}}],"writesIssued":10}"#))  // #55
    effects.release(57)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":true,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":10}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #57
    app.send(try intent(#"{"delete":{"id":1}}"#))  // #59
    try await store.receive(input(#"{"intent":{"_0":{"delete":{"id":1}}}}"#), assert: patch(#"{"canRedo":false,"intentsHandled":11,"lastCommit":null,"pendingWrites":[{"id":11,"operation":{"delete":{"id":1}}}],"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}],"writesIssued":11}"#))  // #60
    effects.release(62)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[{"done":true,"id":1,"position":1,"title":"Buy milk"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}]},"writeID":11}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":true,"id":1,"position":1,"title":"Buy milk"}]},"pendingWrites":[]}"#))  // #62
    app.send(try intent(#"{"search":{"_0":"milk"}}"#))  // #65
    try await store.receive(input(#"{"intent":{"_0":{"search":{"_0":"milk"}}}}"#), assert: patch(#"{"intentsHandled":12,"lastCommit":null,"searchText":"milk"}"#))  // #66
    app.send(try intent(#"{"filter":{"_0":"all"}}"#))  // #69
    try await store.receive(input(#"{"intent":{"_0":{"filter":{"_0":"all"}}}}"#), assert: patch(#"{"intentsHandled":13}"#))  // #70
    app.send(try intent(#"{"search":{"_0":""}}"#))  // #72
    try await store.receive(input(#"{"intent":{"_0":{"search":{"_0":""}}}}"#), assert: patch(#"{"intentsHandled":14,"searchText":""}"#))  // #73
    app.send(try intent(#"{"reload":{}}"#))  // #75
    try await store.receive(input(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":15,"pendingWrites":[{"id":12,"operation":{"reload":{}}}],"writesIssued":12}"#))  // #76
    effects.release(78)
    try await store.receive(input(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}]},"writeID":12}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #78

    await store.finish()
    #expect(effects.problems == [])
  }
}
