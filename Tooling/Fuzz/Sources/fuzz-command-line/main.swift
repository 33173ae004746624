// Fuzzes the typed command lines, from their bytes: the rpg's (`rpg play` reads one per line
// from standard input, `GameCommand.parse`, and a `--script` file whole,
// `GameCommand.parseScript`) and the todo shell's (`TodoCommandLine.parse`, one line at a time).
// The bytes are decoded as the apps decode them (`StrictInput`: a line or a script that is not
// UTF-8 is refused before any parser sees it). A thrown error is a refused line, as it should be.

import CommandLineSupport
import Foundation
import FuzzSupport
import RPGCore
import TodoCore

/// libFuzzer's entry point: reads one input as a script and as lines typed in either shell;
/// always 0 (the input may join the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = fuzzData(start, count)
  if let script = StrictInput.decode(data) {
    _ = try? GameCommand.parseScript(script)
  }
  // Lines as `StrictInput.readLine()` cuts them: at "\n", without a "\r" before it.
  for var bytes in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    guard let line = StrictInput.decode(bytes) else { continue }
    _ = try? GameCommand.parse(line)
    _ = try? TodoCommandLine.parse(line)
  }
  return 0
}

runFuzzer(fuzzOneInput)
