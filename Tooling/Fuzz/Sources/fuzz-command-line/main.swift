// Fuzzes the typed command lines: the rpg's (`rpg play` reads one per line from standard input,
// `GameCommand.parse`, and a `--script` file whole, `GameCommand.parseScript`) and the todo
// shell's (`TodoCommandLine.parse`, one line at a time). A thrown error is a refused line, as it
// should be.

import Foundation
import FuzzSupport
import RPGCore
import TodoCore

/// libFuzzer's entry point: reads one input as a script and as lines typed in either shell; always 0 (the input may join the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let text = String(decoding: fuzzData(start, count), as: UTF8.self)
  _ = try? GameCommand.parseScript(text)
  for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
    _ = try? GameCommand.parse(String(line))
    _ = try? TodoCommandLine.parse(String(line))
  }
  return 0
}

runFuzzer(fuzzOneInput)
