import AppSupport
import AppTestSupport
import CascadeStore
import CascadeStreams
import CascadeTesting
import Foundation
import Testing
import TodoCore

/// A recorded task-list session replayed into a fresh service in-process, on every
/// architecture: it creates stores, reactors and loops, so it runs under the resource check.
@Suite(.checksResources) struct TodoSessionReplayTests {
  /// Proves that `replayTodoSession` + `replayRecording()` starts a fresh service from the state
  /// the recorded one read from the database and takes it through exactly the recorded states
  /// — writes, a refused intent, an undo — while the database is changed since by another
  /// service and left byte for byte as it is by the replay, which opens no database.
  @Test(arguments: Architecture.allCases)
  func aReplayedRecordingGoesThroughTheRecordedStatesWithoutTheDatabase(
    _ architecture: Architecture
  ) async throws {
    try await withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("todo.sqlite").path
      let recording = directory.appendingPathComponent("session.jsonl")
      // Each database is closed before the file's bytes are read: one closed when its last
      // reference goes may close later, on another thread, and write the file then.
      let first = try TodoDatabase(path: path)
      try await makeTodo(architecture, database: first).perform(.add(title: "Buy milk"))
      try await first.close()

      let liveStates = Recorder<TodoState>()
      do {
        let database = try TodoDatabase(path: path)
        let live = makeTodoSession(
          architecture,
          database: database,
          command: "shell",
          recordingTo: recording
        )
        let subscription = live.service.states.subscribe(onNext: { liveStates.append($0) })
        defer { subscription.dispose() }
        let intents: [TodoIntent] = [
          .add(title: "Walk the dog"), .toggle(id: 1), .delete(id: 7), .move(id: 2, to: 0),
          .undo, .filter(.active), .reload,
        ]
        for intent in intents { try await live.perform(intent) }
        #expect(live.recordingFailures.isEmpty)
        #expect(live.service.currentState.titles == ["Buy milk", "Walk the dog"])
        await live.service.finish()
        try await database.close()
      }
      // Another service changes the database since.
      let later = try TodoDatabase(path: path)
      try await makeTodo(architecture, database: later).perform(.add(title: "Later"))
      try await later.close()
      let stored = try contents(of: path)

      let replay = try replayTodoSession(architecture, contentsOf: recording, command: "shell")
      let replayedStates = Recorder<TodoState>()
      let subscription = replay.service.states.subscribe(onNext: { replayedStates.append($0) })
      defer { subscription.dispose() }
      let report = try #require(try await replay.replayRecording())
      #expect(replayedStates.values == liveStates.values)
      #expect(report.replayed > 0)
      #expect(try contents(of: path) == stored)
    }
  }
}
