// Fuzzes the rpg's save reader, `GameFile.read()` (JSON, its version checked first, then the
// game decoded with every number range-checked), as `rpg play|show` call it; then plays a few
// turns of a game it accepted with the rules the app's cores reduce with (`Rules.resolve`,
// `Rules.narrate`, `Game.apply`), so that a number the range checks let through but a turn
// cannot hold shows up as a trap. A thrown `SaveError` is a refused save, as it should be.

import Foundation
import FuzzSupport
import RPGCore

/// The turns played on a save that was read: every intent but a new game, twice.
let turns: [GameIntent] = Array(
  repeating: [.explore, .attack, .drinkPotion, .rest, .flee, .attack],
  count: 2
).flatMap { $0 }

/// libFuzzer's entry point: reads one input as a save file, and plays a few turns of what it accepts; always 0 (the input may join the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let url = FuzzFile.shared.write(fuzzData(start, count), name: "save.json")
  guard var game = try? GameFile(url: url).read() else { return 0 }
  for intent in turns {
    for event in Rules.resolve(intent, in: game) {
      let before = game
      game.apply(event)
      _ = Rules.narrate(event, in: game, before: before)
    }
  }
  return 0
}

runFuzzer(fuzzOneInput)
