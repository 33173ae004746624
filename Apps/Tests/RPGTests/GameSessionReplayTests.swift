import AppSupport
import AppTestSupport
import CascadeFeedback
import CascadeStore
import CascadeStreams
import CascadeTesting
import Foundation
import Testing

@testable import RPGCore

/// A recorded game session replayed into a fresh game in-process, on every architecture: it
/// creates stores, reactors and loops, so it runs under the resource check.
@Suite(.checksResources) struct GameSessionReplayTests {
  /// Proves that `replayGameSession` + `replayRecording()` takes a fresh game through exactly the
  /// states the recorded one went through — a level-up, a save and a load included — without
  /// running an effect: the save file is deleted before the replay, so a load would fail and a
  /// save would bring it back, and neither happens.
  @Test(arguments: Architecture.allCases)
  func aReplayedRecordingGoesThroughTheRecordedStates(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json")
    let recording = directory.file("game.jsonl")
    let intents: [GameIntent] = [
      .newGame(name: "Ada", seed: 42), .explore, .attack, .attack, .attack, .explore, .attack,
      .attack, .save(overwrite: false), .rest, .load,
    ]

    let liveStates = Recorder<GameState>()
    do {
      let live = makeGameSession(
        architecture,
        saveFile: save,
        log: { _ in },
        command: "play",
        recordingTo: recording
      )
      let subscription = live.service.states.subscribe(onNext: { liveStates.append($0) })
      defer { subscription.dispose() }
      for intent in intents {
        let before = live.service.currentState.changes
        _ = try await live.perform(intent) { $0.changes > before && !$0.isBusy }
      }
      #expect(live.recordingFailures.isEmpty)
      #expect(live.service.currentState.game?.player.level == 2)
      #expect(live.service.currentState.message.hasPrefix("Game loaded"))
    }
    try FileManager.default.removeItem(at: save)

    let replay = try replayGameSession(
      architecture,
      saveFile: save,
      log: { _ in },
      contentsOf: recording,
      command: "play"
    )
    let replayedStates = Recorder<GameState>()
    let subscription = replay.service.states.subscribe(onNext: { replayedStates.append($0) })
    defer { subscription.dispose() }
    let report = try #require(try await replay.replayRecording())
    #expect(replayedStates.values == liveStates.values)
    #expect(report.replayed > intents.count)
    // The feedback loop's own `applyNext` events, sent again in reaction to the replayed states,
    // are dropped: the recorded ones are replayed in their place.
    if architecture == .feedback { #expect(report.droppedInputs > 0) }
    #expect(!FileManager.default.fileExists(atPath: save.path))
  }
}

/// A game made for a replay from a state (a live inspector's, from a state it kept) does
/// nothing on its own before the replay: the feedback loop's, made without its feedbacks, does
/// not apply the changes pending in that state, as the loop with them does at once.
@Suite struct RestoredGameTests {
  @Test func aLoopRestoredForAReplayLeavesItsPendingChangesToTheReplay() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var machine = FeedbackGameMachine()
    machine.reduce(.intent(.newGame(name: "Ada", seed: 3)))
    try #require(!machine.pending.isEmpty, "a new game's changes are applied one at a time")
    let file = GameFile(url: directory.file("save.json"))
    let reacting = FeedbackGame(file: file, log: { _ in }, initialState: machine, middlewares: [])
    await reacting.loop.finish()
    #expect(reacting.loop.currentState != machine, "the loop applies what is pending on its own")
    let restored = FeedbackGame(
      file: file,
      log: { _ in },
      initialState: machine,
      reacting: false,
      middlewares: []
    )
    await restored.loop.finish()
    #expect(restored.loop.currentState == machine)
  }
}
