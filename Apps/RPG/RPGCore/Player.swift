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

  /// The hit points of a new player.
  public static let startingHP = 20
  /// The attack of a new player.
  public static let startingAttack = 5

  /// Creates a player.
  public init(
    name: String,
    level: Int = 1,
    xp: Int = 0,
    hp: Int = startingHP,
    maxHP: Int = startingHP,
    attack: Int = startingAttack,
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

  /// Decodes a player, checking its numbers (see ``OutOfRange``).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    level = try container.decode(.level, in: 1...Rules.maxLevel)
    // Below the highest level, experience that pays for the next level is spent on it in the
    // turn that gained it: at most one fight's worth is left over (in a recording's state taken
    // between the fight and its level-ups).
    if level < Rules.maxLevel {
      let range = 0...(Rules.xpToLevelUp(from: level) - 1 + Monster.mostXP)
      xp = try container.decode(.xp, in: range, "at level \(level)")
    } else {
      xp = try container.decode(.xp, in: 0...Rules.maxCount)
    }
    maxHP = try container.decode(.maxHP, in: 1...Rules.maxPlayerHP)
    hp = try container.decode(.hp, in: 0...maxHP, "(the player's maxHP)")
    attack = try container.decode(.attack, in: 0...Rules.maxPlayerAttack)
    inventory = try container.decode(Inventory.self, forKey: .inventory)
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

  /// Decodes an inventory, checking its numbers (see ``OutOfRange``).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    potions = try container.decode(.potions, in: 0...Rules.maxCount)
    gold = try container.decode(.gold, in: 0...Rules.maxCount)
  }
}
