public import RPGCore

/// Plays the game with the pure rules, to find intents that lead somewhere (level 3, death)
/// without hard-coding dice rolls into the scenarios.
public enum GameBot {
  /// How the bot chooses its next move.
  public enum Strategy: Sendable {
    /// Rests when hurt, drinks potions in a pinch, flees when nearly dead.
    case careful
    /// Explores and attacks, nothing else.
    case reckless
  }

  /// The intents the bot plays from a new game until `goal` holds (or `limit` turns), and the
  /// state they lead to.
  public static func play(
    name: String = "Ada",
    seed: UInt64,
    strategy: Strategy,
    limit: Int = 500,
    until goal: (GameState) -> Bool
  ) -> (intents: [GameIntent], state: GameState) {
    var intents: [GameIntent] = [.newGame(name: name, seed: seed)]
    var state = simulate(intents)
    while !goal(state), intents.count < limit, let game = state.game, !game.isOver {
      let intent = next(in: game, strategy: strategy)
      intents.append(intent)
      for change in Rules.changes(for: intent, in: state) { state.apply(change) }
    }
    return (intents, state)
  }

  /// The state after `intents` by the pure rules (no save or load among them).
  public static func simulate(
    _ intents: [GameIntent],
    from start: GameState = GameState()
  ) -> GameState {
    var state = start
    for intent in intents {
      for change in Rules.changes(for: intent, in: state) { state.apply(change) }
    }
    return state
  }

  /// The bot's next move in `game`.
  public static func next(in game: Game, strategy: Strategy) -> GameIntent {
    let player = game.player
    switch strategy {
    case .reckless:
      return game.monster == nil ? .explore : .attack
    case .careful:
      guard let monster = game.monster else {
        return player.hp * 10 < player.maxHP * 7 ? .rest : .explore
      }
      if player.hp <= monster.attack + 1 {
        return player.inventory.potions > 0 ? .drinkPotion : .flee
      }
      return .attack
    }
  }
}
