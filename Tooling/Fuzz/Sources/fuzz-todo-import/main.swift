// Fuzzes `todo import FILE`'s reader, `TodoTransfer.drafts(from:)`. A thrown `Failure` is a
// refused import, as it should be.

import Foundation
import FuzzSupport
import TodoCore

/// libFuzzer's entry point: reads one input as an import file; always 0 (the input may join the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  _ = try? TodoTransfer.drafts(from: fuzzData(start, count))
  return 0
}

runFuzzer(fuzzOneInput)
