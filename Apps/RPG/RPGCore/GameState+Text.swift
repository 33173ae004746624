extension GameState {
  /// The state as the command line shows it: the player, the monster, the save.
  public var summary: String {
    guard let game else { return "No game. Start one with `new NAME [SEED]`." }
    let player = game.player
    var lines = [
      "\(player.name): level \(player.level), XP \(player.xp)/\(player.xpToNextLevel), "
        + "HP \(player.hp)/\(player.maxHP), attack \(player.attack), "
        + "potions \(player.inventory.potions), gold \(player.inventory.gold)"
    ]
    if let monster = game.monster {
      lines.append("Facing a \(monster.name): HP \(monster.hp)/\(monster.maxHP)")
    } else if game.isOver {
      lines.append("Game over: \(game.defeated) monsters defeated.")
    } else {
      lines.append("No monster in sight (\(game.defeated) defeated).")
    }
    if let saveError {
      lines.append("Save problem: \(saveError)")
    }
    return lines.joined(separator: "\n")
  }
}
