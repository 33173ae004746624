// Fuzzes the movies client's page decoder, `MoviesClient.decode(page:body:)` (the JSON, then
// every number checked), which every page body a server sends goes through. A failure is a
// malformed page, as it should be.

import Foundation
import FuzzSupport
import MoviesCore

/// libFuzzer's entry point: reads one input as the body of a page; always 0 (the input may join the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let body = fuzzData(start, count)
  // The page asked for: the first, a middle one, and one past a short listing.
  for number in [1, 2, 500] {
    _ = MoviesClient.decode(page: number, body: body)
  }
  return 0
}

runFuzzer(fuzzOneInput)
