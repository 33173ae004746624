import Benchmark
import CascadeWorkloads
import Foundation

/// What `swift package benchmark baseline update <name>` stored: the results of every
/// benchmark of a run, read back with the tool's own `BenchmarkResult` type.
///
/// The file is `.benchmarkBaselines/CascadeBenchmarks/<name>/results.json` in the package's
/// folder: the tool's JSON form of its baseline (the name, the machine, and per benchmark its
/// results, each a metric with the histogram of its samples).
struct StoredResults: Decodable {
  /// A benchmark's key in the file: its executable target and its name (a cell's label).
  struct Identifier: Decodable, Hashable {
    let target: String
    let name: String
  }

  /// The machine the run was made on, as the tool describes it.
  struct Machine: Decodable {
    let hostname: String
    let processors: Int
    let processorType: String
    /// In GB.
    let memory: Int
    let kernelVersion: String
  }

  let baselineName: String
  let machine: Machine
  let results: [Identifier: [BenchmarkResult]]

  /// Reads the file at `path`.
  static func read(_ path: String) throws -> StoredResults {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try JSONDecoder().decode(StoredResults.self, from: data)
  }

  /// The path of baseline `name`'s results, in the package at `packagePath`.
  static func path(baseline name: String, package packagePath: String) -> String {
    "\(packagePath)/.benchmarkBaselines/CascadeBenchmarks/\(name)/results.json"
  }

  /// The results of the benchmark named `label`.
  func results(_ label: String) -> CellResults? {
    guard let (_, results) = results.first(where: { $0.key.name == label }) else { return nil }
    return CellResults(results)
  }
}

/// The results of one cell, by metric.
struct CellResults {
  private let byMetric: [String: BenchmarkResult]

  init(_ results: [BenchmarkResult]) {
    byMetric = Dictionary(results.map { ($0.metric.description, $0) }) { first, _ in first }
  }

  /// The statistics of a metric: median, fewest and most, in the tool's raw units (nanoseconds
  /// for wall clock, bytes for memory, counts for the rest); `nil` if the run did not record it.
  ///
  /// The tool keeps samples in a histogram with three significant digits, but the fewest and
  /// the most are the exact values recorded, so a value that was the same in every run (a malloc
  /// count after warm-up, a counter) reads back exactly.
  func statistics(_ metric: BenchmarkMetric) -> Summary? {
    guard let result = byMetric[metric.description], result.statistics.measurementCount > 0
    else { return nil }
    let values = result.statistics.percentiles(for: [0, 50, 100])
    return Summary(
      fewest: values[0],
      median: values[1],
      most: values[2],
      count: result.statistics.measurementCount
    )
  }

  /// The median of custom metric `name`.
  func custom(_ name: String) -> Int? {
    statistics(.custom(name))?.median
  }

  /// Every custom metric's median, by name.
  var customMedians: [String: Int] {
    var medians: [String: Int] = [:]
    for (name, result) in byMetric {
      guard case .custom = result.metric, result.statistics.measurementCount > 0 else { continue }
      medians[name] = result.statistics.percentiles(for: [50])[0]
    }
    return medians
  }

  /// A metric's median, fewest and most.
  struct Summary {
    let fewest: Int
    let median: Int
    let most: Int
    /// How many samples.
    let count: Int
  }
}
