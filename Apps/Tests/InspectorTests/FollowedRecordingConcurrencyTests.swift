import AppSupport
import AppTestSupport
import CascadeStore
import Foundation
import InspectorLink
import Testing

@testable import InspectorKit

/// A followed recording is shared safely between the threads that use it.
///
/// It is read on its own thread while the app writes it from another and the server answers
/// from others: the reader's file handle and partial line (`Reader`, kept under a lock) and the
/// steps (`StepFeed`). Run under ThreadSanitizer in CI.
@Suite struct FollowedRecordingConcurrencyTests {
  typealias Action = OwnAppInspectionTests.Action
  typealias Counter = OwnAppInspectionTests.Counter

  @Test func theAppWritesWhileTheInspectorFollowsAndAnswers() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("session.jsonl")
    let app = OwnAppInspectionTests.App(.store, recordingTo: file)
    await app.send(.add(1))
    let recording = try FollowedRecording(path: file.path, follow: true)
    let total = 300
    let store = try #require(app.keep as? Store<Counter, Action>)

    // Thread 0 is the app; the others ask what the page asks, as steps arrive.
    let finished = await runOnThreads(4) { index in
      if index == 0 {
        for _ in 1..<total { store.send(.add(1)) }
        return
      }
      for read in 0..<500 {
        _ = recording.summary()
        _ = recording.steps(
          from: read % 50,
          count: 20,
          kind: read.isMultiple(of: 2) ? .input : nil,
          search: read.isMultiple(of: 3) ? "add" : ""
        )
        _ = try? recording.step(read % 100)
      }
    }
    #expect(finished)

    await recording.waitForSteps(beyond: total - 1)
    let last = try OwnAppInspectionTests.json(try recording.step(total - 1))
    #expect(try OwnAppInspectionTests.state(last).count == total)
    let summary = try OwnAppInspectionTests.json(recording.summary())
    #expect(summary["steps"] as? Int == total)
    // Closing races the follower's next look at the file: it stops, and waits return.
    await withTaskGroup(of: Void.self) { group in
      group.addTask { recording.close() }
      group.addTask { await recording.waitForSteps(beyond: total) }
    }
    #expect(try OwnAppInspectionTests.json(recording.summary())["connected"] as? Bool == false)
  }
}
