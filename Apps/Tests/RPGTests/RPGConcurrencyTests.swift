import AppScenarios
import AppSupport
import CascadeTesting
import Foundation
import RPGCore
import Testing

/// Intents sent from many threads at once: none is lost, and each is resolved against the state
/// its predecessors left.
@Suite(.checksResources) struct RPGConcurrencyTests {
  @Test(arguments: Architecture.allCases)
  func intentsFromManyThreadsAreAllProcessed(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let game = makeGame(architecture, saveFile: directory.file("save.json"), log: { _ in })
    game.send(.newGame(name: "Ada", seed: 42))
    let threads = 8
    let perThread = 100
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<threads {
        group.addTask {
          for _ in 0..<perThread { game.send(.explore) }
        }
      }
    }
    // Every intent makes one change: one monster appears, every other explore is refused.
    let expected = 1 + threads * perThread
    let state = try await game.waitForState(timeout: .seconds(60)) { $0.changes == expected }
    #expect(state.game?.monster != nil)
    #expect(state.game?.step == 1)
    #expect(state.message.hasPrefix("You are already fighting"))
  }

  @Test(arguments: Architecture.allCases)
  func turnsDuringASaveKeepTheirOrder(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let game = makeGame(architecture, saveFile: directory.file("save.json"), log: { _ in })
    let intents: [GameIntent] = [.newGame(name: "Ada", seed: 42), .explore, .attack, .attack]
    game.send(intents[0])
    game.send(.save(overwrite: false))
    for intent in intents.dropFirst() { game.send(intent) }
    // The save finishes whenever the disk allows; the game is the same either way.
    let state = try await game.waitForState(timeout: .seconds(60)) { state in
      !state.isBusy && state.savedStep == 0 && state.game?.step == Bot.simulate(intents).game?.step
    }
    #expect(state.game == Bot.simulate(intents).game)
    #expect(try GameFile(url: directory.file("save.json")).read() == Game(name: "Ada", seed: 42))
  }
}
