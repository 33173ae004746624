/// What the player asks for: what a front sends to a game service.
public enum GameIntent: Sendable, Equatable, Codable {
  /// Starts a new game, replacing the one in memory (not the save, until it is saved).
  case newGame(name: String, seed: UInt64)
  /// Looks for a monster.
  case explore
  /// Attacks the monster; it hits back if it survives.
  case attack
  /// Drinks a healing potion; a monster present hits back.
  case drinkPotion
  /// Rests to recover hit points, when no monster is near; one may appear.
  case rest
  /// Tries to run from the monster; it hits back if the player fails.
  case flee
  /// Saves the game; a save that cannot be read (corrupt, or from a newer version) is replaced
  /// only with `overwrite`.
  case save(overwrite: Bool)
  /// Loads the saved game, replacing the one in memory.
  case load
}
