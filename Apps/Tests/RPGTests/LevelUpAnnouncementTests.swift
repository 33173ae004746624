import AppScenarios
import AppSupport
import AppTestSupport
import CascadeStreams
import CascadeTesting
import Foundation
import RPGCore
import Testing

/// The seed's middleware, ``LevelUpAnnouncer`` ("Leveled Up!"), on every architecture,
/// in-process: it creates stores, reactors and loops, so it runs under the resource check.
@Suite(.checksResources) struct LevelUpAnnouncementTests {
  /// What a front sees of a game: the middleware's lines and the state's messages, in the order
  /// they arrive.
  final class Transcript: Sendable {
    let lines = Recorder<String>()

    /// The log the game's middleware writes to.
    var log: @Sendable (String) -> Void { { [lines] in lines.append($0) } }

    /// Follows `service`'s states, taking each new message.
    func follow(_ service: any AppService<GameIntent, GameState>) -> any Disposable {
      let seen = LockedValue(0)
      return service.states.subscribe(onNext: { [lines] state in
        let isNew = seen.withLock { count in
          defer { count = max(count, state.changes) }
          return state.changes > count
        }
        if isNew { lines.append(state.message) }
      })
    }
  }

  /// The intents of a careful game to level 3, and the state they lead to.
  static let game = Bot.play(seed: 42, strategy: .careful) { ($0.game?.player.level ?? 0) >= 3 }

  /// Proves that the middleware announces each level gained exactly once, on every architecture,
  /// and just before the message of the state that shows the new level — live, while the game
  /// is recorded, and when the recording is replayed — so a front that prints both prints the
  /// same lines whatever the architecture.
  @Test(arguments: Architecture.allCases)
  func eachLevelGainedIsAnnouncedOnceJustBeforeItsMessage(
    _ architecture: Architecture
  ) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recording = directory.file("game.jsonl")
    let (intents, end) = Self.game
    #expect(end.game?.player.level == 3)

    let live = Transcript()
    do {
      let session = makeGameSession(
        architecture,
        saveFile: directory.file("save.json"),
        log: live.log,
        command: "play",
        recordingTo: recording
      )
      let subscription = live.follow(session.service)
      defer { subscription.dispose() }
      for intent in intents {
        let before = session.service.currentState.changes
        _ = try await session.perform(intent) { $0.changes > before && !$0.isBusy }
      }
      #expect(session.service.currentState == end)
    }
    let lines = live.lines.values
    let announcements = lines.indices.filter { lines[$0] == "Leveled Up!" }
    #expect(announcements.count == 2, "\(lines)")
    for index in announcements {
      #expect(lines.indices.contains(index + 1) && lines[index + 1].contains("reaches level"))
    }
    #expect(lines.filter { $0.contains("reaches level") }.count == 2)

    let replayed = Transcript()
    let replay = try replayGameSession(
      architecture,
      saveFile: directory.file("save.json"),
      log: replayed.log,
      contentsOf: recording,
      command: "play"
    )
    let subscription = replayed.follow(replay.service)
    defer { subscription.dispose() }
    _ = try await replay.replayRecording()
    #expect(replayed.lines.values == lines)
  }

  /// Proves that the three architectures tell a game in the same lines: the announcements and
  /// the messages, in the same order.
  @Test func theThreeArchitecturesTellTheSameGame() async throws {
    var transcripts: [[String]] = []
    for architecture in Architecture.allCases {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let transcript = Transcript()
      let game = makeGame(architecture, saveFile: directory.file("save.json"), log: transcript.log)
      let subscription = transcript.follow(game)
      defer { subscription.dispose() }
      for intent in Self.game.intents {
        let before = game.currentState.changes
        game.send(intent)
        _ = try await game.waitForState { $0.changes > before && !$0.isBusy }
      }
      transcripts.append(transcript.lines.values)
    }
    #expect(transcripts.count == 3)
    #expect(transcripts.allSatisfy { $0 == transcripts[0] })
    #expect(transcripts[0].contains("Leveled Up!"))
  }
}
