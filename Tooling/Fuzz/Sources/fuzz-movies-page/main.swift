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
  // The page asked for: the first, the last one the client may ask for, and the one the body
  // says it is (read leniently here, a harness convenience), so that the checks after the page
  // number are reached too.
  let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
  let claimed = object?["page"] as? Int ?? 1
  for number in Set([1, 500, claimed]) {
    _ = MoviesClient.decode(page: number, body: body)
  }
  return 0
}

runFuzzer(fuzzOneInput)
