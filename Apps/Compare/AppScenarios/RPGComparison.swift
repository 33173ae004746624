public import AppHarness
public import AppSupport
public import Foundation
public import RPGCore

/// The RPG as the comparison drives it: a full game to level 3, a death, and a save and load
/// round trip (the same scenarios as `RPGScenarioTests`).
public struct RPGComparison: ComparedApp {
  /// One step of a game scenario.
  public typealias Step = Scenario<GameIntent, GameState>.Step

  /// Creates the RPG's comparison.
  public init() {}

  /// "RPG".
  public var name: String { "RPG" }

  /// `Apps/RPG/RPGCore/StoreGame.swift`, `ReactorGame.swift`, `FeedbackGame.swift`.
  public var implementationFiles: [Architecture: [String]] {
    [
      .store: ["Apps/RPG/RPGCore/StoreGame.swift"],
      .reactor: ["Apps/RPG/RPGCore/ReactorGame.swift"],
      .feedback: ["Apps/RPG/RPGCore/FeedbackGame.swift"],
    ]
  }

  /// The game, saving to `save.json` in `directory`, logging nowhere.
  public func makeService(
    _ architecture: Architecture,
    in directory: URL
  ) async throws -> any AppService<GameIntent, GameState> {
    makeGame(architecture, saveFile: Self.saveFile(in: directory), log: { _ in })
  }

  /// The save file of a run in `directory`.
  public static func saveFile(in directory: URL) -> URL {
    directory.appendingPathComponent("save.json")
  }

  /// A full game to level 3, a death, and a save and load round trip.
  public func scenarios(in directory: URL) -> [Scenario<GameIntent, GameState>] {
    [Self.levelThree, Self.death, Self.saveAndLoad(Self.saveFile(in: directory))]
  }

  /// The careful bot plays seed 42 to level 3.
  public static let levelThree: Scenario<GameIntent, GameState> = {
    let (intents, end) = GameBot.play(seed: 42, strategy: .careful) {
      ($0.game?.player.level ?? 0) >= 3
    }
    return Scenario("a full game to level 3") {
      intents.map { Step.send($0) }
      Step.await("level 3") { $0.game?.player.level == 3 }
      Step.expect("the state the rules predict") { $0 == end }
      Step.expect("stronger") { state in
        state.game?.player.maxHP == 30 && state.game?.player.attack == 9
      }
    }
  }()

  /// The reckless bot plays the first seed on which it dies; no turn is taken after that, and a
  /// new game can start.
  public static let death: Scenario<GameIntent, GameState> = {
    let runs = (0..<100 as Range<UInt64>).lazy.map { seed in
      GameBot.play(seed: seed, strategy: .reckless) { $0.game?.isOver == true }
    }
    let (intents, end) = runs.first { $0.state.game?.isOver == true } ?? runs[0]
    return Scenario("death ends the game") {
      Step.expect("the reckless bot died", { _ in end.game?.isOver == true })
      intents.map { Step.send($0) }
      Step.await("game over") { $0.game?.isOver == true }
      Step.expect("the last word") { $0.message.hasSuffix("has fallen. Game over.") }
      Step.send(.attack)
      Step.await("no more turns") { $0.message.contains("the game is over") }
      Step.expect("nothing changed but the message") { $0.game == end.game }
      Step.send(.newGame(name: "Grace", seed: 3))
      Step.await("a new game can start") { $0.game?.player.name == "Grace" }
    }
  }()

  /// Saves a game to `file`, plays on, and loads it back.
  public static func saveAndLoad(_ file: URL) -> Scenario<GameIntent, GameState> {
    let before: [GameIntent] = [.newGame(name: "Ada", seed: 42), .explore, .attack, .attack]
    let saved = GameBot.simulate(before).game
    let idle: @Sendable (GameState) -> Bool = { !$0.isBusy }
    return Scenario("save and load round trip") {
      Step.perform("remove the save") { try? FileManager.default.removeItem(at: file) }
      Step.send(.load)
      Step.await("nothing to load") { $0.saveError == .missing && !$0.isBusy }
      before.map { Step.send($0) }
      Step.send(.save(overwrite: false))
      Step.await("saved") { state in !state.isBusy && state.savedStep == saved?.step }
      Step.expect("no error, nothing unsaved") { $0.saveError == nil && !$0.hasUnsavedChanges }
      Step.send(.explore)
      Step.send(.rest)
      Step.await("played on") { $0.hasUnsavedChanges }
      Step.send(.load)
      Step.await("loaded") { idle($0) && $0.message.hasPrefix("Game loaded") }
      Step.expect("the saved game is back") { $0.game == saved && !$0.hasUnsavedChanges }
      Step.perform("the file holds the saved game") {
        guard try GameFile(url: file).read() == saved else { throw SaveMismatch() }
      }
    }
  }

  /// The save file does not hold the game saved.
  struct SaveMismatch: Error {}
}
