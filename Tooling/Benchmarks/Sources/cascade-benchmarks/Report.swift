import Foundation

/// The results of one invocation: the table printed at the end and the JSON written with `--json`.
struct Report: Sendable {
  let measurements: [Measurement]
  let runs: Int
  let configuration: String
  let date: Date

  /// The W0 measurement every ratio is taken against.
  var baseline: Measurement? {
    measurements.first { $0.benchmark.workload.id == W0.workload.id }
  }

  /// The rows, in the order the workloads were registered.
  var workloads: [Workload] {
    var seen: Set<Workload> = []
    return measurements.map(\.benchmark.workload).filter { seen.insert($0).inserted }
  }

  /// The columns: the architectures that have at least one measurement, in declaration order.
  var architectures: [Architecture] {
    Architecture.allCases.filter { architecture in
      measurements.contains { $0.benchmark.architecture == architecture }
    }
  }

  func measurement(_ workload: Workload, _ architecture: Architecture) -> Measurement? {
    measurements.first {
      $0.benchmark.workload == workload && $0.benchmark.architecture == architecture
    }
  }

  /// Time per operation relative to W0's: 1.0 is the bare loop, 2.0 twice as slow per operation.
  func ratioToBaseline(_ measurement: Measurement) -> Double? {
    guard let baseline else { return nil }
    return measurement.nanosecondsPerOperation / baseline.nanosecondsPerOperation
  }

  /// Per workload, each library architecture's time per operation over the hand-written one's.
  var comparisons: [Comparison] {
    workloads.flatMap { workload -> [Comparison] in
      guard let hand = measurement(workload, .handWritten) else { return [] }
      return architectures.filter { $0 != .handWritten }.compactMap { architecture in
        guard let measured = self.measurement(workload, architecture) else { return nil }
        return Comparison(
          workload: workload.id,
          architecture: architecture,
          relativeTo: .handWritten,
          ratio: measured.nanosecondsPerOperation / hand.nanosecondsPerOperation
        )
      }
    }
  }

  /// A ratio between two cells of one row.
  struct Comparison: Sendable, Codable {
    let workload: String
    let architecture: Architecture
    let relativeTo: Architecture
    let ratio: Double
  }

  // MARK: Table

  /// The results as a Markdown table: rows are workloads, columns architectures; each cell holds
  /// the median wall time of one run, operations per second and the ratio to W0.
  func table() -> String {
    let header = ["id", "workload", "N"] + architectures.map(\.rawValue)
    var rows: [[String]] = []
    for workload in workloads {
      let n = measurements.first { $0.benchmark.workload == workload }?.n ?? workload.n
      var row = [workload.id, workload.name, grouped(n)]
      for architecture in architectures {
        guard let measured = measurement(workload, architecture) else {
          row.append("—")
          continue
        }
        var cell = "\(milliseconds(measured.median)) · \(rate(measured.operationsPerSecond))"
        if let ratio = ratioToBaseline(measured) { cell += " · ×\(fixed(ratio, 2))" }
        row.append(cell)
      }
      rows.append(row)
    }
    let widths = header.indices.map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      let padded = cells.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column < 2 ? cell + padding : padding + cell
      }
      return "| " + padded.joined(separator: " | ") + " |"
    }
    let rule = widths.enumerated().map { column, width in
      column < 2
        ? String(repeating: "-", count: width)
        : String(repeating: "-", count: width - 1) + ":"
    }
    var lines = [line(header), "| " + rule.joined(separator: " | ") + " |"]
    lines += rows.map(line)
    lines.append("")
    lines.append(
      "Cells: median wall time of one run · operations per second · time per operation "
        + "relative to W0 (\(runs) timed runs after a warm-up; \(configuration) build)."
    )
    for comparison in comparisons {
      lines.append(
        "\(comparison.workload): \(comparison.architecture.rawValue) / "
          + "\(comparison.relativeTo.rawValue) = ×\(fixed(comparison.ratio, 2)) per operation"
      )
    }
    return lines.joined(separator: "\n")
  }

  private func grouped(_ number: Int) -> String {
    let digits = Array(String(number))
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return result
  }

  private func fixed(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
  }

  private func milliseconds(_ seconds: Double) -> String {
    switch seconds {
    case 10e-3...: "\(fixed(seconds * 1e3, 1)) ms"
    case 1e-3...: "\(fixed(seconds * 1e3, 2)) ms"
    default: "\(fixed(seconds * 1e6, 1)) µs"
    }
  }

  private func rate(_ perSecond: Double) -> String {
    switch perSecond {
    case 1e9...: "\(fixed(perSecond / 1e9, 2)) G/s"
    case 1e6...: "\(fixed(perSecond / 1e6, 1)) M/s"
    case 1e3...: "\(fixed(perSecond / 1e3, 1)) k/s"
    default: "\(fixed(perSecond, 0)) /s"
    }
  }

  // MARK: JSON

  /// The JSON form, for comparing runs.
  struct Document: Codable {
    struct Result: Codable {
      let workload: String
      let name: String
      let architecture: Architecture
      let n: Int
      let runs: Int
      let medianSeconds: Double
      let samplesSeconds: [Double]
      let operationsPerSecond: Double
      let nanosecondsPerOperation: Double
      let ratioToW0: Double?
      let checksum: Checksum
    }

    let date: String
    let configuration: String
    let runs: Int
    let processors: Int
    let results: [Result]
    let comparisons: [Comparison]
  }

  func json() throws -> Data {
    let document = Document(
      date: date.formatted(.iso8601),
      configuration: configuration,
      runs: runs,
      processors: ProcessInfo.processInfo.activeProcessorCount,
      results: measurements.map { measured in
        Document.Result(
          workload: measured.benchmark.workload.id,
          name: measured.benchmark.workload.name,
          architecture: measured.benchmark.architecture,
          n: measured.n,
          runs: measured.samples.count,
          medianSeconds: measured.median,
          samplesSeconds: measured.samples,
          operationsPerSecond: measured.operationsPerSecond,
          nanosecondsPerOperation: measured.nanosecondsPerOperation,
          ratioToW0: ratioToBaseline(measured),
          checksum: measured.checksum
        )
      },
      comparisons: comparisons
    )
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(document)
  }
}
