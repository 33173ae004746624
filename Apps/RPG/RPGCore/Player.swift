/// The player's hero: who they are, how strong they are, what they carry.
public struct Player: Sendable, Equatable, Codable {
  /// The name chosen at the start.
  public var name: String
  /// The level, from 1.
  public var level: Int
  /// Experience gathered towards the next level.
  public var xp: Int
  /// Hit points left; the player dies at 0.
  public var hp: Int
  /// The most hit points the player can have.
  public var maxHP: Int
  /// The base damage of an attack.
  public var attack: Int
  /// The inventory.
  public var inventory: Inventory

  /// Creates a player.
  public init(
    name: String,
    level: Int = 1,
    xp: Int = 0,
    hp: Int = 20,
    maxHP: Int = 20,
    attack: Int = 5,
    inventory: Inventory = Inventory()
  ) {
    self.name = name
    self.level = level
    self.xp = xp
    self.hp = hp
    self.maxHP = maxHP
    self.attack = attack
    self.inventory = inventory
  }

  /// The experience needed to leave the current level.
  public var xpToNextLevel: Int { Rules.xpToLevelUp(from: level) }

  /// Whether the player has no hit points left.
  public var isDead: Bool { hp <= 0 }
}

/// What the player carries.
public struct Inventory: Sendable, Equatable, Codable {
  /// Healing potions; each restores ``Rules/potionHealing`` hit points.
  public var potions: Int
  /// Gold taken from defeated monsters.
  public var gold: Int

  /// Creates an inventory.
  public init(potions: Int = 2, gold: Int = 0) {
    self.potions = potions
    self.gold = gold
  }
}
