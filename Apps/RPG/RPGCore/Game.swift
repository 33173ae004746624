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

  /// Decodes a game, checking its numbers (see ``OutOfRange``).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    seed = try container.decode(UInt64.self, forKey: .seed)
    player = try container.decode(Player.self, forKey: .player)
    monster = try container.decodeIfPresent(Monster.self, forKey: .monster)
    step = try container.decode(.step, in: 0...Rules.maxCount)
    defeated = try container.decode(.defeated, in: 0...Rules.maxCount)
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
    // Every sum stays within the ranges a save is checked against (``Rules/maxCount``, …).
    let counts = 0...Rules.maxCount
    step = Rules.add(1, to: step, within: counts)
    switch event {
    case .gameStarted(let game):
      self = game
    case .monsterAppeared(let newMonster):
      monster = newMonster
    case .playerHit(let damage):
      if let hp = monster?.hp {
        monster?.hp = Rules.subtract(damage, from: hp, within: 0...max(0, hp))
      }
    case .monsterHit(let damage):
      player.hp = Rules.subtract(damage, from: player.hp, within: 0...max(0, player.hp))
    case .monsterDefeated:
      if let defeatedMonster = monster {
        player.xp = Rules.add(defeatedMonster.xp, to: player.xp, within: counts)
        player.inventory.gold = Rules.add(
          defeatedMonster.gold,
          to: player.inventory.gold,
          within: counts
        )
        defeated = Rules.add(1, to: defeated, within: counts)
      }
      monster = nil
    case .leveledUp(let level):
      let cost = Rules.xpToLevelUp(from: player.level)
      player.xp = Rules.subtract(cost, from: player.xp, within: counts)
      player.level = min(max(level, 1), Rules.maxLevel)
      player.maxHP = Rules.add(Rules.hpPerLevel, to: player.maxHP, within: 1...Rules.maxPlayerHP)
      player.attack = Rules.add(
        Rules.attackPerLevel,
        to: player.attack,
        within: 0...Rules.maxPlayerAttack
      )
      player.hp = player.maxHP
      player.inventory.potions = Rules.add(1, to: player.inventory.potions, within: counts)
    case .potionDrunk(let healed):
      player.inventory.potions = Rules.subtract(1, from: player.inventory.potions, within: counts)
      player.hp = Rules.add(healed, to: player.hp, within: 0...max(0, player.hp, player.maxHP))
    case .rested(let healed):
      player.hp = Rules.add(healed, to: player.hp, within: 0...max(0, player.hp, player.maxHP))
    case .fled:
      monster = nil
    case .fleeFailed, .died, .refused:
      break
    }
  }
}
