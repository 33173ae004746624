// swift-format-ignore-file
// Generated from the recording todo-shell-reactor.jsonl (`todo shell`, on the reactor) by
// `cascade-inspect Apps/Tests/Recordings/todo-shell-reactor.jsonl --export-test Apps/Tests/TodoTests/Recorded/TodoShellReactorRecordingTests.swift`
// Do not edit it: make it again from the recording.
import AppSupport
import CascadeFeedback
import CascadeReactor
import CascadeStore
import CascadeTesting
import Testing

@testable import TodoCore

/// `todo shell`, recorded on the reactor, replayed through the exhaustive
/// `TestStore`: one line per record of the recording (its number after `#`), each
/// received input with the change of state it made; the effects answer with their
/// recorded outcomes, each released at the record that holds it.
@Suite struct TodoShellReactorRecordingTests {
  @Test func replaysTheRecordingStepByStep() async throws {
    let effects = try RecordedEffects<TodoCore.TodoWriteResult>(json: [
      (record: 8, key: 1, outcome: #"{"commit":{"tasks":[{"done":false,"id":3,"position":2,"title":"Write report"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":1}"#),
      (record: 15, key: 2, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":2}"#),
      (record: 21, key: 3, outcome: #"{"commit":{"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":3}"#),
      (record: 28, key: 4, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":4}"#),
      (record: 34, key: 5, outcome: #"{"commit":{"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":5}"#),
      (record: 41, key: 6, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":6}"#),
      (record: 47, key: 7, outcome: #"{"commit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"writeID":7}"#),
      (record: 54, key: 8, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"writeID":8}"#),
      (record: 60, key: 9, outcome: #"{"commit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"snapshot":{"canRedo":true,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":9}"#),
      (record: 67, key: 10, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":true,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":10}"#),
      (record: 73, key: 11, outcome: #"{"commit":{"tasks":[{"done":true,"id":1,"position":1,"title":"Buy milk"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}]},"writeID":11}"#),
      (record: 93, key: 12, outcome: #"{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}]},"writeID":12}"#),
    ])
    let start = try RecordedJSON<TodoCore.TodoState>.decode(#"{"canRedo":false,"canUndo":true,"filter":"all","intentsHandled":0,"nextID":3,"pendingWrites":[],"searchText":"","tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"}],"writesIssued":0}"#)
    let service = TodoCore.TodoApp.reactor.service(
      TodoCore.TodoApp.testEnvironment(start: start, effects: effects)
    )
    let app: any AppService<TodoCore.TodoApp.Intent, TodoCore.TodoApp.State> = service
    let store = TestStore(reactor: service.container)
    let intent = RecordedJSON<TodoCore.TodoApp.Intent>.decode
    let mutation = RecordedJSON<TodoCore.TodoEvent>.decode
    let patch = StatePatch<TodoCore.TodoState>.apply

    app.send(try intent(#"{"add":{"title":"Write report"}}"#))  // #4
    // #5: the action {"add":{"title":"Write report"}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"add":{"title":"Write report"}}}}"#), assert: patch(#"{"intentsHandled":1,"nextID":4,"pendingWrites":[{"id":1,"operation":{"add":{"title":"Write report"}}}],"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}],"writesIssued":1}"#))  // #6
    effects.release(8)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[{"done":false,"id":3,"position":2,"title":"Write report"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":1}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":false,"id":3,"position":2,"title":"Write report"}]},"pendingWrites":[]}"#))  // #8
    app.send(try intent(#"{"reload":{}}"#))  // #11
    // #12: the action {"reload":{}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":2,"lastCommit":null,"pendingWrites":[{"id":2,"operation":{"reload":{}}}],"writesIssued":2}"#))  // #13
    effects.release(15)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":2}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #15
    app.send(try intent(#"{"setDone":{"_1":true,"id":1}}"#))  // #17
    // #18: the action {"setDone":{"_1":true,"id":1}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"setDone":{"_1":true,"id":1}}}}"#), assert: patch(#"{"intentsHandled":3,"lastCommit":null,"pendingWrites":[{"id":3,"operation":{"setDone":{"_1":true,"id":1}}}],"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}],"writesIssued":3}"#))  // #19
    effects.release(21)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":3}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"}]},"pendingWrites":[]}"#))  // #21
    app.send(try intent(#"{"reload":{}}"#))  // #24
    // #25: the action {"reload":{}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":4,"lastCommit":null,"pendingWrites":[{"id":4,"operation":{"reload":{}}}],"writesIssued":4}"#))  // #26
    effects.release(28)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":true,"id":1,"position":0,"title":"Buy milk"},{"done":false,"id":2,"position":1,"title":"Walk dog"},{"done":false,"id":3,"position":2,"title":"Write report"}]},"writeID":4}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #28
    app.send(try intent(#"{"move":{"id":3,"to":0}}"#))  // #30
    // #31: the action {"move":{"id":3,"to":0}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"move":{"id":3,"to":0}}}}"#), assert: patch(#"{"intentsHandled":5,"lastCommit":null,"pendingWrites":[{"id":5,"operation":{"move":{"id":3,"to":0}}}],"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}],"writesIssued":5}"#))  // #32
    effects.release(34)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":5}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"}]},"pendingWrites":[]}"#))  // #34
    app.send(try intent(#"{"reload":{}}"#))  // #37
    // #38: the action {"reload":{}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":6,"lastCommit":null,"pendingWrites":[{"id":6,"operation":{"reload":{}}}],"writesIssued":6}"#))  // #39
    effects.release(41)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":6}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #41
    app.send(try intent(#"{"edit":{"id":2,"title":"Walk the dog"}}"#))  // #43
    // #44: the action {"edit":{"id":2,"title":"Walk the dog"}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"edit":{"id":2,"title":"Walk the dog"}}}}"#), assert: patch(#"{"intentsHandled":7,"lastCommit":null,"pendingWrites":[{"id":7,"operation":{"edit":{"id":2,"title":"Walk the dog"}}}],"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}],"writesIssued":7}"#))  // #45
    effects.release(47)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"writeID":7}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"pendingWrites":[]}"#))  // #47
    app.send(try intent(#"{"reload":{}}"#))  // #50
    // #51: the action {"reload":{}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":8,"lastCommit":null,"pendingWrites":[{"id":8,"operation":{"reload":{}}}],"writesIssued":8}"#))  // #52
    effects.release(54)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk the dog"}]},"writeID":8}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #54
    app.send(try intent(#"{"undo":{}}"#))  // #56
    // #57: the action {"undo":{}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"undo":{}}}}"#), assert: patch(#"{"intentsHandled":9,"lastCommit":null,"pendingWrites":[{"id":9,"operation":{"undo":{}}}],"writesIssued":9}"#))  // #58
    effects.release(60)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"snapshot":{"canRedo":true,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":9}}}"#), assert: patch(#"{"canRedo":true,"lastCommit":{"tasks":[{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"pendingWrites":[],"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]}"#))  // #60
    app.send(try intent(#"{"reload":{}}"#))  // #63
    // #64: the action {"reload":{}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":10,"lastCommit":null,"pendingWrites":[{"id":10,"operation":{"reload":{}}}],"writesIssued":10}"#))  // #65
    effects.release(67)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":true,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":true,"id":1,"position":1,"title":"Buy milk"},{"done":false,"id":2,"position":2,"title":"Walk dog"}]},"writeID":10}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #67
    app.send(try intent(#"{"delete":{"id":1}}"#))  // #69
    // #70: the action {"delete":{"id":1}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"delete":{"id":1}}}}"#), assert: patch(#"{"canRedo":false,"intentsHandled":11,"lastCommit":null,"pendingWrites":[{"id":11,"operation":{"delete":{"id":1}}}],"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}],"writesIssued":11}"#))  // #71
    effects.release(73)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[{"done":true,"id":1,"position":1,"title":"Buy milk"}]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}]},"writeID":11}}}"#), assert: patch(#"{"lastCommit":{"tasks":[{"done":true,"id":1,"position":1,"title":"Buy milk"}]},"pendingWrites":[]}"#))  // #73
    app.send(try intent(#"{"search":{"_0":"milk"}}"#))  // #76
    // #77: the action {"search":{"_0":"milk"}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"search":{"_0":"milk"}}}}"#), assert: patch(#"{"intentsHandled":12,"lastCommit":null,"searchText":"milk"}"#))  // #78
    app.send(try intent(#"{"filter":{"_0":"all"}}"#))  // #81
    // #82: the action {"filter":{"_0":"all"}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"filter":{"_0":"all"}}}}"#), assert: patch(#"{"intentsHandled":13}"#))  // #83
    app.send(try intent(#"{"search":{"_0":""}}"#))  // #85
    // #86: the action {"search":{"_0":""}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"search":{"_0":""}}}}"#), assert: patch(#"{"intentsHandled":14,"searchText":""}"#))  // #87
    app.send(try intent(#"{"reload":{}}"#))  // #89
    // #90: the action {"reload":{}}; its mutations follow
    try await store.receive(mutation(#"{"intent":{"_0":{"reload":{}}}}"#), assert: patch(#"{"intentsHandled":15,"pendingWrites":[{"id":12,"operation":{"reload":{}}}],"writesIssued":12}"#))  // #91
    effects.release(93)
    try await store.receive(mutation(#"{"written":{"_0":{"commit":{"tasks":[]},"snapshot":{"canRedo":false,"canUndo":true,"nextID":4,"tasks":[{"done":false,"id":3,"position":0,"title":"Write report"},{"done":false,"id":2,"position":1,"title":"Walk dog"}]},"writeID":12}}}"#), assert: patch(#"{"lastCommit":{"tasks":[]},"pendingWrites":[]}"#))  // #93

    await store.finish()
    #expect(effects.problems == [])
  }
}
