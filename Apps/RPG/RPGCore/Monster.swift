/// A monster the player meets while exploring.
public struct Monster: Sendable, Equatable, Codable {
  /// What it is ("Goblin").
  public var name: String
  /// Hit points left; it is defeated at 0.
  public var hp: Int
  /// Its hit points when it appeared.
  public var maxHP: Int
  /// The base damage of its attack.
  public var attack: Int
  /// The experience the player gains by defeating it.
  public var xp: Int
  /// The gold it drops.
  public var gold: Int

  /// Creates a monster.
  public init(name: String, hp: Int, attack: Int, xp: Int, gold: Int) {
    self.name = name
    self.hp = hp
    self.maxHP = hp
    self.attack = attack
    self.xp = xp
    self.gold = gold
  }

  /// Decodes a monster, checking its numbers (see ``OutOfRange``).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    maxHP = try container.decode(.maxHP, in: 1...Rules.maxCount)
    hp = try container.decode(.hp, in: 0...maxHP, "(the monster's maxHP)")
    attack = try container.decode(.attack, in: 0...Rules.maxCount)
    xp = try container.decode(.xp, in: 0...Self.mostXP)
    gold = try container.decode(.gold, in: 0...Self.mostGold)
  }

  /// The most experience a monster of the ``roster`` gives.
  public static let mostXP = roster.map(\.xp).max() ?? 0
  /// The most gold a monster of the ``roster`` drops.
  public static let mostGold = roster.map(\.gold).max() ?? 0

  /// The monsters of the world, weakest first; the player meets stronger ones as they level up.
  public static let roster: [Monster] = [
    Monster(name: "Rat", hp: 6, attack: 2, xp: 4, gold: 1),
    Monster(name: "Goblin", hp: 10, attack: 3, xp: 6, gold: 3),
    Monster(name: "Wolf", hp: 13, attack: 4, xp: 8, gold: 2),
    Monster(name: "Orc", hp: 18, attack: 6, xp: 12, gold: 6),
    Monster(name: "Troll", hp: 26, attack: 8, xp: 20, gold: 10),
  ]
}
