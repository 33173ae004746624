import AppSupport
import AppTestSupport
import CascadeStore
import CascadeStreams
import CascadeTesting
import Foundation
import MoviesCore
import MoviesServer
import Testing

/// A recorded paging session replayed into a fresh service in-process, on every architecture:
/// it creates stores, reactors and loops, so it runs under the resource check.
@Suite(.checksResources) struct MoviesSessionReplayTests {
  /// Proves that `replayMoviesSession` + `replayRecording()` takes a fresh service through
  /// exactly the states the recorded one went through — pages, a failed page and its retry, a
  /// refresh — while the recorded server, still running, receives no request.
  @Test(arguments: Architecture.allCases)
  func aReplayedRecordingGoesThroughTheRecordedStatesWithoutAnyRequest(
    _ architecture: Architecture
  ) async throws {
    let recording = FileManager.default.temporaryDirectory
      .appendingPathComponent("movies-session-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: recording) }
    try await withServer(faults: ServerFaults(failingPages: [2: 1])) { server, url in
      let liveStates = Recorder<MoviesState>()
      do {
        // Safety nets, wide for a machine kept busy (the CI's flake check), where this
        // process's server once answered a page after more than 30 s.
        let client = try MoviesClient(baseURL: url, timeout: .seconds(120))
        let live = makeMoviesSession(
          architecture,
          client: client,
          command: "browse",
          recordingTo: recording
        )
        let subscription = live.service.states.subscribe(onNext: { liveStates.append($0) })
        defer { subscription.dispose() }
        for intent in [MoviesIntent.loadNextPage, .loadNextPage, .retry, .loadNextPage, .refresh] {
          _ = try await live.perform(intent, timeout: .seconds(300)) { !$0.isLoading }
        }
        #expect(live.recordingFailures.isEmpty)
        #expect(live.service.currentState.phase == .refreshed)
      }
      let asked = server.requestedPages
      #expect(asked == [1, 2, 2, 3, 1])

      let replay = try replayMoviesSession(architecture, contentsOf: recording, command: "browse")
      let replayedStates = Recorder<MoviesState>()
      let subscription = replay.service.states.subscribe(onNext: { replayedStates.append($0) })
      defer { subscription.dispose() }
      let report = try #require(try await replay.replayRecording())
      #expect(replayedStates.values == liveStates.values)
      #expect(report.replayed > 0)
      #expect(server.requestedPages == asked, "the replay asked the server for a page")
    }
  }
}
