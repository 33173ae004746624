import AppHarness
import AppScenarios
import AppSupport
import CascadeStreams
import CascadeTesting
import Foundation
import RPGCore
import Testing

/// One step of a game scenario.
///
/// Steps are written `Step.send(…)` in the builder: a line starting with `.send(…)` would
/// continue the expression on the line before it.
typealias Step = Scenario<GameIntent, GameState>.Step

/// A scenario of the game, built for a given save file.
struct RPGScenario: Sendable, CustomTestStringConvertible {
  typealias Steps = Scenario<GameIntent, GameState>

  let name: String
  let make: @Sendable (URL) -> Steps

  var testDescription: String { name }

  init(_ name: String, make: @escaping @Sendable (URL) -> Steps) {
    self.name = name
    self.make = make
  }
}

/// Every intent makes a change, so a scenario can wait for an intent to be processed.
private func sendAll(_ intents: [GameIntent]) -> [Step] {
  intents.map { .send($0) }
}

private func removeFile(_ file: URL) -> Step {
  Step.perform("remove the save") { try? FileManager.default.removeItem(at: file) }
}

private func write(_ text: String, to file: URL) -> Step {
  Step.perform("write \(text.prefix(20)) to the save") {
    try Data(text.utf8).write(to: file)
  }
}

private func fileContains(_ text: String, _ file: URL) -> Step {
  Step.perform("the save file is untouched") {
    let content = try String(contentsOf: file, encoding: .utf8)
    guard content == text else { throw FileChanged(content: content) }
  }
}

private struct FileChanged: Error {
  var content: String
}

private let idle: @Sendable (GameState) -> Bool = { !$0.isBusy }

enum RPGScenarios {
  static let all: [RPGScenario] = [
    RPGScenario("a new game starts at level 1") { _ in
      Scenario("a new game starts at level 1") {
        Step.expect("no game yet") { $0.game == nil }
        Step.send(.newGame(name: "Ada", seed: 42))
        Step.await("the game started") { $0.game != nil }
        Step.expect("a fresh player") { state in
          state.game?.player == Player(name: "Ada") && state.game?.monster == nil
            && state.game?.seed == 42
        }
        Step.send(.newGame(name: "  ", seed: 1))
        Step.await("a nameless player is refused") { $0.message == "A player needs a name." }
        Step.expect("the game is kept") { $0.game?.player.name == "Ada" }
      }
    },
    RPGScenario("turns without a game are refused") { _ in
      Scenario("turns without a game are refused") {
        for intent in [
          GameIntent.explore, .attack, .drinkPotion, .rest, .flee, .save(overwrite: false),
        ] {
          Step.send(intent)
        }
        Step.await("six refusals") { $0.changes == 6 }
        Step.expect("still no game") { $0.game == nil && $0.activity == nil }
      }
    },
    RPGScenario("exploring meets the seed's monster") { _ in
      let expected = Bot.simulate([.newGame(name: "Ada", seed: 7), .explore]).game?.monster
      return Scenario("exploring meets the seed's monster") {
        Step.send(.newGame(name: "Ada", seed: 7))
        Step.send(.explore)
        Step.await("a monster appears") { $0.game?.monster != nil }
        Step.expect("the monster the seed gives") { $0.game?.monster == expected }
        Step.send(.explore)
        Step.await("exploring again is refused") {
          $0.message.hasPrefix("You are already fighting")
        }
      }
    },
    RPGScenario("a won fight gives experience and gold") { _ in
      let (intents, end) = Bot.play(seed: 42, strategy: .careful) { ($0.game?.defeated ?? 0) >= 1 }
      return Scenario("a won fight gives experience and gold") {
        sendAll(intents)
        Step.await("one monster defeated") { $0.game?.defeated == 1 }
        Step.expect("experience and gold") { state in
          state == end && (state.game?.player.xp ?? 0) > 0
            && (state.game?.player.inventory.gold ?? 0) > 0
        }
      }
    },
    // Shared with `cascade-compare` (Apps/Compare/AppScenarios).
    RPGScenario("a full game to level 3") { _ in RPGComparison.levelThree },
    RPGScenario("death ends the game") { _ in RPGComparison.death },
    RPGScenario("fleeing gets away") { _ in
      let start: [GameIntent] = [.newGame(name: "Ada", seed: 11), .explore]
      var intents = start
      var state = Bot.simulate(start)
      while state.game?.monster != nil, intents.count < 40, state.game?.isOver == false {
        intents.append(.flee)
        state = Bot.simulate([.flee], from: state)
      }
      let end = state
      return Scenario("fleeing gets away") {
        sendAll(intents)
        Step.await("the monster is gone") { $0.changes == end.changes }
        Step.expect("away, or fallen trying") { state in
          state == end && (state.game?.monster == nil || state.game?.isOver == true)
        }
        Step.send(.flee)
        Step.await("nothing to flee from") { state in
          state.message == "There is nothing to flee from."
            || state.message.contains("the game is over")
        }
      }
    },
    RPGScenario("resting heals, but not in a fight") { _ in
      Scenario("resting heals, but not in a fight") {
        Step.send(.newGame(name: "Ada", seed: 42))
        Step.send(.rest)
        Step.await("full health already") { $0.message == "You are already at full health." }
        Step.send(.explore)
        Step.send(.attack)
        Step.await("hurt or won") { $0.changes >= 5 }
        Step.send(.rest)
        Step.await("rest refused or taken") { state in
          if state.game?.monster != nil {
            return state.message.hasPrefix("You cannot rest")
          }
          return state.message.contains("rests") || state.message.contains("full health")
            || state.message.contains("appears")
        }
      }
    },
    RPGScenario("potions heal and run out") { _ in
      let (intents, hurt) = Bot.play(seed: 5, strategy: .reckless) { state in
        guard let player = state.game?.player else { return false }
        return player.hp < player.maxHP && state.game?.monster != nil
      }
      return Scenario("potions heal and run out") {
        sendAll(intents)
        Step.await("hurt in a fight") { $0 == hurt }
        Step.send(.drinkPotion)
        Step.await("a potion drunk") { $0.game?.player.inventory.potions == 1 }
        Step.send(.drinkPotion)
        Step.send(.drinkPotion)
        Step.await("out of potions, at full health, or fallen") { state in
          state.message == "You have no potions left."
            || state.message == "You are already at full health."
            || state.game?.isOver == true
        }
        Step.expect("never below zero") { ($0.game?.player.inventory.potions ?? 0) >= 0 }
      }
    },
    RPGScenario("save and load round trip") { file in RPGComparison.saveAndLoad(file) },
    RPGScenario("a corrupt save is reported and kept") { file in
      let garbage = "{ this is not a save"
      return Scenario("a corrupt save is reported and kept") {
        write(garbage, to: file)
        Step.send(.newGame(name: "Ada", seed: 42))
        Step.send(.load)
        Step.await("the load failed") { idle($0) && $0.saveError != nil }
        Step.expect("corrupt, game kept") { state in
          guard case .corrupt = state.saveError else { return false }
          return state.game?.player.name == "Ada"
        }
        Step.send(.save(overwrite: false))
        Step.await("the save was refused") { idle($0) && $0.message.hasPrefix("Could not save") }
        Step.expect("still corrupt") { state in
          if case .corrupt = state.saveError { true } else { false }
        }
        fileContains(garbage, file)
        Step.send(.save(overwrite: true))
        Step.await("saved with consent") { idle($0) && $0.saveError == nil && $0.savedStep == 0 }
        Step.perform("the file is a save again") { _ = try GameFile(url: file).read() }
      }
    },
    RPGScenario("a newer save is reported and kept") { file in
      let newer = #"{"version": 99, "game": {"anything": true}}"#
      return Scenario("a newer save is reported and kept") {
        write(newer, to: file)
        Step.send(.load)
        Step.await("the load failed") { idle($0) && $0.saveError != nil }
        Step.expect("newer version") { $0.saveError == .newerVersion(found: 99, supported: 1) }
        Step.send(.newGame(name: "Ada", seed: 1))
        Step.send(.save(overwrite: false))
        Step.await("the save was refused") { idle($0) && $0.message.hasPrefix("Could not save") }
        fileContains(newer, file)
      }
    },
    RPGScenario("a load replaces the game in memory") { file in
      Scenario("a load replaces the game in memory") {
        removeFile(file)
        Step.send(.newGame(name: "Ada", seed: 1))
        Step.send(.save(overwrite: false))
        Step.await("saved") { idle($0) && $0.savedStep == 0 }
        Step.send(.newGame(name: "Grace", seed: 2))
        Step.await("Grace plays") { $0.game?.player.name == "Grace" && $0.hasUnsavedChanges }
        Step.send(.load)
        Step.await("loaded") { idle($0) && $0.game?.player.name == "Ada" }
        Step.expect("Ada's game") { $0.game == Game(name: "Ada", seed: 1) }
      }
    },
  ]
}

@Suite(.checksResources) struct RPGScenarioTests {
  @Test(arguments: RPGScenarios.all)
  func sameStatesInEveryArchitecture(_ scenario: RPGScenario) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("save.json")
    let states = try await assertIdenticalAcrossArchitectures(scenario.make(file)) { architecture in
      makeGame(architecture, saveFile: file, log: { _ in })
    }
    #expect(states.first == GameState())
    #expect(states.count > 1)
  }

  @Test func theSeedsLoggingMiddlewareAnnouncesEachLevelUp() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (intents, end) = Bot.play(seed: 42, strategy: .careful) {
      ($0.game?.player.level ?? 0) >= 3
    }
    let printed = LockedValue<[String]>([])
    let game = makeGame(.store, saveFile: directory.file("save.json")) { line in
      printed.withLock { $0.append(line) }
    }
    for intent in intents { game.send(intent) }
    let state = try await game.waitForState { $0.changes == end.changes }
    #expect(state == end)
    #expect(printed.withLock { $0 } == ["Leveled Up!", "Leveled Up!"])
  }

  @Test(arguments: Architecture.allCases)
  func eachServiceSaysItsArchitecture(_ architecture: Architecture) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let game = makeGame(architecture, saveFile: directory.file("save.json"), log: { _ in })
    #expect(game.architecture == architecture)
    #expect(game.currentState == GameState())
  }
}
