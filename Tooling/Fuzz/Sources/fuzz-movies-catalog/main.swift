// Fuzzes `movies --catalog FILE`'s reader, `MovieCatalog.load(contentsOf:)`, on the same bytes
// as JSON (a `.json` file) and as CSV (any other extension), then serves the catalog's pages as
// the embedded server does (`page(_:)`, JSON-encoded). A thrown `CatalogError` is a refused
// catalog, as it should be.

import Foundation
import FuzzSupport
import MoviesServer

/// libFuzzer's entry point: reads one input as a catalog file, JSON and CSV; always 0 (the input may join the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = fuzzData(start, count)
  for name in ["catalog.json", "catalog.csv"] {
    let url = FuzzFile.shared.write(data, name: name)
    guard let catalog = try? MovieCatalog.load(contentsOf: url) else { continue }
    // The server serves pages 1 to 500: the first, the last, and the empty one after it.
    let last = catalog.totalPages
    let pages = Set([1, last, last + 1]).filter { (1...500).contains($0) }
    for page in pages {
      _ = try? JSONEncoder().encode(catalog.page(page))
    }
  }
  return 0
}

runFuzzer(fuzzOneInput)
