import Foundation

/// The results of one invocation: the table printed at the end and the JSON written with `--json`.
struct Report: Sendable {
  let measurements: [Measurement]
  let runs: Int
  /// Whether this was a `--quick` smoke run: no goal is judged.
  let quick: Bool
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

  /// The measurement shown in the cell of `workload` and `architecture`: the fastest of its
  /// variants when it was measured written several ways.
  func measurement(_ workload: Workload, _ architecture: Architecture) -> Measurement? {
    measurements.filter {
      $0.benchmark.workload == workload && $0.benchmark.architecture == architecture
    }
    .min { $0.median < $1.median }
  }

  /// Whether `measured` is the one its cell shows (not a slower variant).
  func isShown(_ measured: Measurement) -> Bool {
    let shown = measurement(measured.benchmark.workload, measured.benchmark.architecture)
    return shown?.benchmark.variant == measured.benchmark.variant
  }

  /// For each cell measured written several ways, which variant it shows and how the others
  /// did.
  var variantNotes: [String] {
    measurements.filter { $0.benchmark.variant != nil && !isShown($0) }.compactMap { other in
      guard
        let shown = measurement(other.benchmark.workload, other.benchmark.architecture),
        let otherVariant = other.benchmark.variant
      else { return nil }
      let shownVariant = shown.benchmark.variant ?? "form without variant"
      var cell = "\(Format.milliseconds(other.median)) · \(Format.rate(other.operationsPerSecond))"
      if let ratio = ratioToBaseline(other) { cell += " · ×\(Format.fixed(ratio, 2))" }
      let relative = other.nanosecondsPerOperation / shown.nanosecondsPerOperation
      return
        "\(other.benchmark.workload.id) \(other.benchmark.architecture.rawValue): the cell is "
        + "the \(shownVariant); the \(otherVariant) ran \(cell) "
        + "(×\(Format.fixed(relative, 2)) the cell's time per operation)"
    }
  }

  /// Time per operation relative to W0's: 1.0 is the bare loop, 2.0 twice as slow per operation.
  func ratioToBaseline(_ measurement: Measurement) -> Double? {
    guard let baseline else { return nil }
    return measurement.nanosecondsPerOperation / baseline.nanosecondsPerOperation
  }

  /// Per workload, each library architecture's time per operation over that of each reference
  /// column (hand-written, plain) of the same row.
  var comparisons: [Comparison] {
    workloads.flatMap { workload -> [Comparison] in
      let references = architectures.filter(\.isReference).compactMap {
        self.measurement(workload, $0)
      }
      return architectures.filter { !$0.isReference }.flatMap { architecture in
        guard let measured = self.measurement(workload, architecture) else { return [Comparison]() }
        return references.map { reference in
          Comparison(
            workload: workload.id,
            architecture: architecture,
            relativeTo: reference.benchmark.architecture,
            ratio: measured.nanosecondsPerOperation / reference.nanosecondsPerOperation
          )
        }
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

  /// The goals judged, in row order; none in a quick run.
  var verdicts: [GoalVerdict] {
    guard !quick else { return [] }
    return measurements.compactMap { measured in
      guard let goal = measured.benchmark.goal else { return nil }
      let shown = isShown(measured)
      // A slower variant is judged too when it has a goal of its own (W1's Store with a
      // filtered logging middleware: at most twice the cell's time).
      if !shown {
        let cell = measurement(measured.benchmark.workload, measured.benchmark.architecture)
        guard cell?.benchmark.goal?.description != goal.description else { return nil }
      }
      let verdict = goal.judge(measured) { self.measurement(measured.benchmark.workload, $0) }
      return GoalVerdict(
        workload: measured.benchmark.workload.id,
        architecture: measured.benchmark.architecture,
        variant: shown ? nil : measured.benchmark.variant,
        goal: goal.description,
        met: verdict.met,
        measured: verdict.detail
      )
    }
  }

  /// A goal and whether a cell met it.
  struct GoalVerdict: Sendable, Codable {
    let workload: String
    let architecture: Architecture
    /// The variant judged, when it is not the one the cell shows.
    let variant: String?
    let goal: String
    let met: Bool
    let measured: String
  }

  // MARK: Table

  /// The results as a Markdown table, with the comparisons, notes and goals under it.
  ///
  /// Rows are workloads, columns architectures; each cell holds the median wall time of one run,
  /// operations per second and the ratio to W0. Under it: each library cell over the reference
  /// cells of its row, the workloads' notes and, in a full run, the goals.
  func table() -> String {
    let header = ["id", "workload", "N"] + architectures.map(\.rawValue)
    var rows: [[String]] = []
    for workload in workloads {
      let n = measurements.first { $0.benchmark.workload == workload }?.n ?? workload.n
      var row = [workload.id, workload.name, Format.grouped(n)]
      for architecture in architectures {
        guard let measured = measurement(workload, architecture) else {
          row.append("—")
          continue
        }
        var cell =
          "\(Format.milliseconds(measured.median)) · \(Format.rate(measured.operationsPerSecond))"
        if let ratio = ratioToBaseline(measured) { cell += " · ×\(Format.fixed(ratio, 2))" }
        if workload.showsPeakMemory, let memory = measured.memory {
          cell += " · peak \(Format.megabytes(memory.growthBytes, signed: true))"
        }
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
        + "relative to W0 (\(runs) timed run\(runs == 1 ? "" : "s") after a warm-up; "
        + "\(configuration) build\(quick ? "; quick mode: small N, not comparable" : ""))."
    )
    let peakRows = workloads.filter(\.showsPeakMemory).map(\.id)
    if !peakRows.isEmpty {
      lines.append(
        "\(peakRows.joined(separator: ", ")): · peak resident memory of the operations over "
          + "the resident memory before them, in one extra run (MB = 10⁶ bytes)."
      )
    }
    for comparison in comparisons {
      lines.append(
        "\(comparison.workload): \(comparison.architecture.rawValue) / "
          + "\(comparison.relativeTo.rawValue) = ×\(Format.fixed(comparison.ratio, 2)) "
          + "per operation"
      )
    }
    let notes =
      measurements.filter(isShown).flatMap { measured in
        (measured.benchmark.notes?(measured) ?? []).map {
          "\(measured.benchmark.workload.id) \(measured.benchmark.architecture.rawValue): \($0)"
        }
      } + variantNotes
    if !notes.isEmpty {
      lines.append("")
      lines += notes
    }
    let verdicts = verdicts
    if !verdicts.isEmpty {
      lines.append("")
      lines.append("Goals:")
      for verdict in verdicts {
        lines.append(
          "  \(verdict.met ? "met   " : "MISSED") \(verdict.workload) "
            + "\(verdict.architecture.rawValue)"
            + (verdict.variant.map { " (\($0))" } ?? "")
            + " \(verdict.goal): \(verdict.measured)"
        )
      }
    }
    return lines.joined(separator: "\n")
  }

  // MARK: JSON

  /// The JSON form, for comparing runs.
  struct Document: Codable {
    struct Result: Codable {
      let workload: String
      let name: String
      let architecture: Architecture
      /// How the cell was written, when it was measured written several ways.
      let variant: String?
      /// Whether the table shows this measurement (the fastest variant of its cell).
      let shown: Bool
      let n: Int
      let runs: Int
      let medianSeconds: Double
      let samplesSeconds: [Double]
      let operationsPerSecond: Double
      let nanosecondsPerOperation: Double
      let ratioToW0: Double?
      let checksum: Checksum
      let counters: [String: Int]?
      let memory: MemoryUsage?
    }

    let date: String
    let configuration: String
    let quick: Bool
    let runs: Int
    let processors: Int
    let results: [Result]
    let comparisons: [Comparison]
    let goals: [GoalVerdict]
  }

  func json() throws -> Data {
    let document = Document(
      date: date.formatted(.iso8601),
      configuration: configuration,
      quick: quick,
      runs: runs,
      processors: ProcessInfo.processInfo.activeProcessorCount,
      results: measurements.map { measured in
        Document.Result(
          workload: measured.benchmark.workload.id,
          name: measured.benchmark.workload.name,
          architecture: measured.benchmark.architecture,
          variant: measured.benchmark.variant,
          shown: isShown(measured),
          n: measured.n,
          runs: measured.samples.count,
          medianSeconds: measured.median,
          samplesSeconds: measured.samples,
          operationsPerSecond: measured.operationsPerSecond,
          nanosecondsPerOperation: measured.nanosecondsPerOperation,
          ratioToW0: ratioToBaseline(measured),
          checksum: measured.checksum,
          counters: measured.counters.isEmpty ? nil : measured.counters,
          memory: measured.memory
        )
      },
      comparisons: comparisons,
      goals: verdicts
    )
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(document)
  }
}
