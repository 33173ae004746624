/// A number of a saved or recorded game outside the range the rules can reach: the file is
/// corrupt, whatever wrote it.
///
/// Every number of a ``Game`` is checked as it is decoded, so a game in memory always has its
/// numbers in range and the rules' sums cannot overflow:
///
/// | Field | Range |
/// | --- | --- |
/// | `player.level` | 1 to ``Rules/maxLevel`` |
/// | `player.xp` | 0 to the experience that levels up, less one, plus a fight's (``Monster/mostXP``); to ``Rules/maxCount`` at the highest level |
/// | `player.maxHP` | 1 to ``Rules/maxPlayerHP`` |
/// | `player.hp` | 0 to `player.maxHP` |
/// | `player.attack` | 0 to ``Rules/maxPlayerAttack`` |
/// | `player.inventory.potions`, `.gold`, `step`, `defeated` | 0 to ``Rules/maxCount`` |
/// | `monster.maxHP`, `monster.attack` | 1 (0 for the attack) to ``Rules/maxCount`` |
/// | `monster.hp` | 0 to `monster.maxHP` |
/// | `monster.xp`, `monster.gold` | 0 to the most a monster of ``Monster/roster`` gives |
struct OutOfRange: Error, CustomStringConvertible {
  /// The field, as a path from the top of the file: `game.player.xp`.
  var field: String
  /// The number found.
  var value: Int
  /// The range it must be in.
  var range: ClosedRange<Int>
  /// What the range depends on, if anything: `at level 3`.
  var condition: String?

  var description: String {
    "`\(field)` is \(value); it must be from \(range.lowerBound) to \(range.upperBound)"
      + (condition.map { " " + $0 } ?? "")
  }
}

extension KeyedDecodingContainer {
  /// The whole number at `key`, checked to be in `range`.
  ///
  /// - Throws: ``OutOfRange`` naming the field, or the decoder's error.
  func decode(
    _ key: Key,
    in range: ClosedRange<Int>,
    _ condition: String? = nil
  ) throws -> Int {
    let value = try decode(Int.self, forKey: key)
    guard range.contains(value) else {
      throw OutOfRange(
        field: (codingPath + [key]).map(\.stringValue).joined(separator: "."),
        value: value,
        range: range,
        condition: condition
      )
    }
    return value
  }
}
