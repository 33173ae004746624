public import AppSupport

/// One game in progress: the player, the monster they face, and where the dice stand.
///
/// A game is a plain value that changes only through ``apply(_:)``; ``Rules`` decide which
/// events a turn produces. The random numbers of a turn come from the seed and the number of
/// events so far, so the same seed and the same commands always give the same game, and a
/// loaded game goes on exactly as the saved one would have.
public struct Game: Sendable, Equatable, Codable {
  /// The seed the game was started with.
  public var seed: UInt64
  /// The player.
  public var player: Player
  /// The monster the player is fighting, if any.
  public var monster: Monster?
  /// The number of events applied so far.
  public var step: Int
  /// The number of monsters defeated.
  public var defeated: Int

  /// Creates a game: a new player, no monster yet.
  public init(name: String, seed: UInt64) {
    self.seed = seed
    player = Player(name: name)
    monster = nil
    step = 0
    defeated = 0
  }

  /// Whether the game is over: the player died.
  public var isOver: Bool { player.isDead }

  /// The generator for the next turn, derived from the seed and the step.
  public var dice: SplitMix64 {
    SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: step) &* 0xD1B5_4A32_D192_ED03))
  }

  /// Applies one event; a refused turn changes nothing, and events that do not fit the game (a
  /// hit with no monster) change nothing but the step.
  public mutating func apply(_ event: GameEvent) {
    if case .refused = event { return }
    step += 1
    switch event {
    case .gameStarted(let game):
      self = game
    case .monsterAppeared(let newMonster):
      monster = newMonster
    case .playerHit(let damage):
      if let hp = monster?.hp { monster?.hp = max(0, hp - damage) }
    case .monsterHit(let damage):
      player.hp = max(0, player.hp - damage)
    case .monsterDefeated:
      if let defeatedMonster = monster {
        player.xp += defeatedMonster.xp
        player.inventory.gold += defeatedMonster.gold
        defeated += 1
      }
      monster = nil
    case .leveledUp(let level):
      player.xp -= Rules.xpToLevelUp(from: player.level)
      player.level = level
      player.maxHP += Rules.hpPerLevel
      player.attack += Rules.attackPerLevel
      player.hp = player.maxHP
      player.inventory.potions += 1
    case .potionDrunk(let healed):
      player.inventory.potions -= 1
      player.hp = min(player.maxHP, player.hp + healed)
    case .rested(let healed):
      player.hp = min(player.maxHP, player.hp + healed)
    case .fled:
      monster = nil
    case .fleeFailed, .died, .refused:
      break
    }
  }
}
