/// Something that happened in a game: the unit the rules produce and every architecture applies.
///
/// One turn produces several events (the player hits, the monster hits back, the player dies),
/// and each one is applied on its own, so every architecture goes through the same states.
public enum GameEvent: Sendable, Equatable, Codable {
  /// A new game began (the seed's `CreatePlayer` then `AddPlayer`).
  case gameStarted(Game)
  /// A monster appeared.
  case monsterAppeared(Monster)
  /// The player hit the monster.
  case playerHit(damage: Int)
  /// The monster hit the player (0 is a miss).
  case monsterHit(damage: Int)
  /// The monster fell: the player takes its experience and gold.
  case monsterDefeated
  /// The player reached `level` (the seed's `LevelUp`).
  case leveledUp(level: Int)
  /// The player drank a potion.
  case potionDrunk(healed: Int)
  /// The player rested.
  case rested(healed: Int)
  /// The player got away from the monster.
  case fled
  /// The player tried to get away and failed.
  case fleeFailed
  /// The player died: the game is over.
  case died
  /// The turn could not be played; the reason is for the player.
  case refused(String)
}
