import Foundation

extension Rules {
  /// The changes that follow `intent` in `state`, before any asynchronous work: the shared
  /// front half of every architecture.
  ///
  /// A save or load gives ``GameChange/saveStarted(overwrite:)`` or
  /// ``GameChange/loadStarted``; the architecture then does the work and applies its result.
  public static func changes(for intent: GameIntent, in state: GameState) -> [GameChange] {
    switch intent {
    case .newGame(let name, let seed):
      let trimmed = name.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else { return [.refused("A player needs a name.")] }
      return [.happened(.gameStarted(Game(name: trimmed, seed: seed)))]
    case .save(let overwrite):
      if state.isBusy {
        return [.refused("The game is still being saved or loaded; try again when that is done.")]
      }
      guard state.game != nil else { return [.refused("There is no game to save.")] }
      return [.saveStarted(overwrite: overwrite)]
    case .load:
      if state.isBusy {
        return [.refused("The game is still being saved or loaded; try again when that is done.")]
      }
      return [.loadStarted]
    case .explore, .attack, .drinkPotion, .rest, .flee:
      guard let game = state.game else {
        return [.refused("No game yet. Start one with `new NAME [SEED]`.")]
      }
      return resolve(intent, in: game).map(GameChange.happened)
    }
  }
}
