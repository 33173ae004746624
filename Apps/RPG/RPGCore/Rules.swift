public import AppSupport

/// The rules of the game: pure functions from a game and what the player asks to the events
/// that follow.
///
/// ```swift
/// let events = Rules.resolve(.attack, in: game)
/// for event in events { game.apply(event) }
/// ```
public enum Rules {
  /// Hit points a level-up adds.
  public static let hpPerLevel = 5
  /// Attack a level-up adds.
  public static let attackPerLevel = 2
  /// The most hit points a potion restores.
  public static let potionHealing = 10
  /// The chance, in percent, that fleeing succeeds.
  public static let fleeChance = 60
  /// The chance, in percent, that a monster interrupts a rest.
  public static let ambushChance = 25

  /// The highest level: experience gathered there no longer levels up.
  public static let maxLevel = 10_000
  /// The most any count of a game reaches: experience at the highest level, gold, potions,
  /// monsters defeated, steps.
  ///
  /// It is far below `Int.max`, so that no rule's sum overflows; a count stays there once it
  /// reaches it.
  public static let maxCount = 1_000_000_000_000_000
  /// The player's most hit points: those of the highest level.
  public static let maxPlayerHP = Player.startingHP + hpPerLevel * (maxLevel - 1)
  /// The player's strongest attack: that of the highest level.
  public static let maxPlayerAttack = Player.startingAttack + attackPerLevel * (maxLevel - 1)

  /// The experience needed to leave `level` (`Int.max` for a level too high to leave).
  public static func xpToLevelUp(from level: Int) -> Int {
    let (xp, overflow) = level.multipliedReportingOverflow(by: 10)
    return overflow ? Int.max : xp
  }

  /// `value + amount`, kept within `range`: the rules' sums never overflow.
  static func add(_ amount: Int, to value: Int, within range: ClosedRange<Int>) -> Int {
    let (sum, overflow) = value.addingReportingOverflow(amount)
    if overflow { return amount < 0 ? range.lowerBound : range.upperBound }
    return min(max(sum, range.lowerBound), range.upperBound)
  }

  /// `value - amount`, kept within `range`.
  static func subtract(_ amount: Int, from value: Int, within range: ClosedRange<Int>) -> Int {
    let (difference, overflow) = value.subtractingReportingOverflow(amount)
    if overflow { return amount > 0 ? range.lowerBound : range.upperBound }
    return min(max(difference, range.lowerBound), range.upperBound)
  }

  /// The monster met when exploring with `dice` at `level`: stronger ones appear as the
  /// player levels up.
  public static func spawn(level: Int, dice: inout SplitMix64) -> Monster {
    let strongest = min(level, Monster.roster.count - 1)
    return Monster.roster[dice.roll(0...strongest)]
  }

  /// The events that follow `intent` in `game`: the turn, resolved.
  ///
  /// Save, load and new-game intents are not turns; they give no events here.
  public static func resolve(_ intent: GameIntent, in game: Game) -> [GameEvent] {
    var turn = Turn(game: game)
    guard !game.isOver else {
      turn.refuse(
        "\(game.player.name) has fallen and the game is over. Start a new one with "
          + "`new NAME [SEED]`."
      )
      return turn.events
    }
    switch intent {
    case .explore:
      if let monster = game.monster {
        turn.refuse("You are already fighting a \(monster.name).")
      } else {
        turn.emit(.monsterAppeared(spawn(level: game.player.level, dice: &turn.dice)))
      }
    case .attack:
      guard let monster = game.monster else {
        turn.refuse("There is nothing to attack. Explore to find a monster.")
        break
      }
      let damage = max(1, game.player.attack + turn.dice.roll(-1...2))
      turn.emit(.playerHit(damage: damage))
      if damage >= monster.hp {
        turn.emit(.monsterDefeated)
        turn.levelUps()
      } else {
        turn.monsterStrikes()
      }
    case .drinkPotion:
      guard game.player.inventory.potions > 0 else {
        turn.refuse("You have no potions left.")
        break
      }
      guard game.player.hp < game.player.maxHP else {
        turn.refuse("You are already at full health.")
        break
      }
      turn.emit(.potionDrunk(healed: min(potionHealing, game.player.maxHP - game.player.hp)))
      turn.monsterStrikes()
    case .rest:
      if let monster = game.monster {
        turn.refuse("You cannot rest with a \(monster.name) in front of you.")
        break
      }
      guard game.player.hp < game.player.maxHP else {
        turn.refuse("You are already at full health.")
        break
      }
      let healed = min(max(1, game.player.maxHP / 2), game.player.maxHP - game.player.hp)
      turn.emit(.rested(healed: healed))
      if turn.dice.roll(1...100) <= ambushChance {
        turn.emit(.monsterAppeared(spawn(level: game.player.level, dice: &turn.dice)))
      }
    case .flee:
      guard game.monster != nil else {
        turn.refuse("There is nothing to flee from.")
        break
      }
      if turn.dice.roll(1...100) <= fleeChance {
        turn.emit(.fled)
      } else {
        turn.emit(.fleeFailed)
        turn.monsterStrikes()
      }
    case .newGame, .save, .load:
      break
    }
    return turn.events
  }

  /// What happened, told to the player in one sentence; `game` is the game after the event, and
  /// `before` the game before it (which names the monster a defeat removed).
  public static func narrate(_ event: GameEvent, in game: Game, before: Game? = nil) -> String {
    let name = game.player.name
    let monster = game.monster?.name ?? before?.monster?.name ?? "monster"
    switch event {
    case .gameStarted:
      return "\(name) sets out on an adventure (seed \(game.seed))."
    case .monsterAppeared(let monster):
      return "A \(monster.name) appears! (HP \(monster.hp), attack \(monster.attack))"
    case .playerHit(let damage):
      return "\(name) hits the \(monster) for \(damage)."
    case .monsterHit(let damage):
      return damage == 0
        ? "The \(monster) misses." : "The \(monster) hits \(name) for \(damage)."
    case .monsterDefeated:
      return "The \(monster) is defeated! \(name) now has \(game.player.xp) XP and "
        + "\(game.player.inventory.gold) gold."
    case .leveledUp(let level):
      return "\(name) reaches level \(level)!"
    case .potionDrunk(let healed):
      return "\(name) drinks a potion and recovers \(healed) HP."
    case .rested(let healed):
      return "\(name) rests and recovers \(healed) HP."
    case .fled:
      return "\(name) gets away from the \(monster)."
    case .fleeFailed:
      return "\(name) tries to flee but cannot get away."
    case .died:
      return "\(name) has fallen. Game over."
    case .refused(let reason):
      return reason
    }
  }
}

/// A turn being resolved: the events so far, applied to a scratch copy of the game so that each
/// rule sees the game as the events left it.
private struct Turn {
  var game: Game
  var dice: SplitMix64
  var events: [GameEvent] = []

  init(game: Game) {
    self.game = game
    dice = game.dice
  }

  mutating func emit(_ event: GameEvent) {
    events.append(event)
    game.apply(event)
  }

  mutating func refuse(_ reason: String) {
    emit(.refused(reason))
  }

  /// The monster, if still there, hits back; the player may die.
  mutating func monsterStrikes() {
    guard let monster = game.monster else { return }
    emit(.monsterHit(damage: max(0, monster.attack + dice.roll(-2...1))))
    if game.player.isDead { emit(.died) }
  }

  /// Every level the experience gathered pays for, up to ``Rules/maxLevel``: each costs at least
  /// 10 experience, so a fight's few points pay for a few levels at most.
  mutating func levelUps() {
    while game.player.level < Rules.maxLevel,
      game.player.xp >= Rules.xpToLevelUp(from: game.player.level)
    {
      emit(.leveledUp(level: game.player.level + 1))
    }
  }
}
