import AppSupport

/// A game script made from a seed: the same seed always gives the same lines.
enum SeededScript {
  /// `count` commands (turns mostly, with saves, loads, help, the state, a new game now and
  /// then, aliases, comments and blank lines), starting with a new game and ending with `quit`.
  static func make(seed: UInt64, count: Int = 500) -> String {
    var dice = SplitMix64(seed: seed)
    var lines = ["# \(count) commands from seed \(seed)", "new Ada \(seed)"]
    var commands = 1
    let turns = [
      "explore", "e", "attack", "a", "attack", "attack", "attack", "potion", "p", "rest", "r",
      "flee", "f",
    ]
    while commands < count - 1 {
      let roll = dice.roll(1...100)
      switch roll {
      case 1...80: lines.append(turns[dice.roll(0...(turns.count - 1))])
      case 81...85: lines.append("show")
      case 86...89: lines.append("save")
      case 90: lines.append("save --force")
      case 91...93: lines.append("load")
      case 94: lines.append("help")
      case 95...96:
        lines.append("new \(["Bo", "Cy", "Di"][dice.roll(0...2)]) \(dice.roll(0...999))")
      case 97...98:
        lines.append("# a comment")
        continue
      default:
        lines.append("")
        continue
      }
      commands += 1
    }
    lines.append("quit")
    return lines.joined(separator: "\n") + "\n"
  }
}
