extension GameState {
  /// The state as the command line shows it: the player, the monster, the save.
  public var summary: String { summaryLines.joined(separator: "\n") }

  /// The lines of ``summary``, each a line of its own: a front that escapes what the player typed
  /// (a name with a newline in it) escapes each line.
  public var summaryLines: [String] {
    guard let game else { return ["No game yet. Start one with `new NAME [SEED]`."] }
    let player = game.player
    var lines = [
      "\(player.name): level \(player.level), XP \(player.xp)/\(player.xpToNextLevel), "
        + "HP \(player.hp)/\(player.maxHP), attack \(player.attack), "
        + "potions \(player.inventory.potions), gold \(player.inventory.gold)"
    ]
    let defeated = game.defeated == 1 ? "1 monster" : "\(game.defeated) monsters"
    if let monster = game.monster {
      lines.append("Facing a \(monster.name): HP \(monster.hp)/\(monster.maxHP)")
    } else if game.isOver {
      lines.append("Game over: \(defeated) defeated.")
    } else {
      lines.append("No monster in sight (\(game.defeated) defeated so far).")
    }
    if let saveError {
      lines.append("The last save or load failed: \(saveError).")
    }
    return lines
  }
}
