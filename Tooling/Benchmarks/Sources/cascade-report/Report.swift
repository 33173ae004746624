import CascadeWorkloads

/// The side-by-side report of one run of the benchmarks: workloads as rows, architectures as
/// columns, each cell's time with its ratio to W0, each library cell over the plain (or
/// hand-written) cell of its row, the workloads' notes, the allocations per action and, in a
/// full run, the goals.
struct Report {
  let measurements: [CellMeasurement]
  /// Per cell (by label), what the tool counted beside the time.
  let resources: [String: Resources]
  /// Whether this was a quick run (N = each workload's `quickN`): no goal is judged.
  let quick: Bool
  /// The runs per cell after the warm-up.
  let runs: Int
  /// A line about the machine and the run.
  let context: String

  /// What the tool counted of one cell besides its time.
  struct Resources {
    /// Allocations (mallocCountTotal) in one run's operations: fewest, median, most.
    let allocations: CellResults.Summary?
    /// The process's peak resident memory (the tool's sampled peakMemoryResident), in bytes.
    let peakResident: Int?
    /// Instructions in one run's operations (median), where perf counters exist.
    let instructions: Int?
  }

  /// The W0 measurement every ratio is taken against.
  var baseline: CellMeasurement? {
    measurements.first { $0.cell.workload == .baseline }
  }

  /// The rows, in the order the workloads were registered.
  var workloads: [Workload] {
    var seen: Set<Workload> = []
    return measurements.map(\.cell.workload).filter { seen.insert($0).inserted }
  }

  /// The columns: the architectures that have at least one measurement, in declaration order.
  var architectures: [Architecture] {
    Architecture.allCases.filter { architecture in
      measurements.contains { $0.cell.architecture == architecture }
    }
  }

  /// The measurement shown in the cell of `workload` and `architecture`: the fastest of its
  /// variants when it was measured written several ways.
  func measurement(_ workload: Workload, _ architecture: Architecture) -> CellMeasurement? {
    measurements.filter {
      $0.cell.workload == workload && $0.cell.architecture == architecture
    }
    .min { $0.median < $1.median }
  }

  /// Whether `measured` is the one its cell shows (not a slower variant).
  func isShown(_ measured: CellMeasurement) -> Bool {
    measurement(measured.cell.workload, measured.cell.architecture)?.cell.label
      == measured.cell.label
  }

  /// For each cell measured written several ways, which variant it shows and how the others
  /// did.
  var variantNotes: [String] {
    measurements.filter { !isShown($0) }.compactMap { other in
      guard let shown = measurement(other.cell.workload, other.cell.architecture) else {
        return nil
      }
      let otherVariant = other.cell.variant ?? "form without variant"
      let shownVariant = shown.cell.variant ?? "form without variant"
      var cell = "\(Format.milliseconds(other.median)) · \(Format.rate(other.operationsPerSecond))"
      if let ratio = ratioToBaseline(other) { cell += " · ×\(Format.fixed(ratio, 2))" }
      let relative = other.nanosecondsPerOperation / shown.nanosecondsPerOperation
      return
        "\(other.cell.workload.id) \(other.cell.architecture.rawValue): the cell is "
        + "the \(shownVariant); the \(otherVariant) ran \(cell) "
        + "(×\(Format.fixed(relative, 2)) the cell's time per operation)"
    }
  }

  /// Time per operation relative to W0's: 1.0 is the bare loop, 2.0 twice as slow per operation.
  func ratioToBaseline(_ measurement: CellMeasurement) -> Double? {
    guard let baseline else { return nil }
    return measurement.nanosecondsPerOperation / baseline.nanosecondsPerOperation
  }

  /// Per workload, each library architecture's time per operation over that of each reference
  /// column (hand-written, plain) of the same row.
  var comparisons: [Comparison] {
    workloads.flatMap { workload in
      let references = architectures.filter(\.isReference).compactMap {
        self.measurement(workload, $0)
      }
      return architectures.filter { !$0.isReference }.flatMap { architecture in
        guard let measured = self.measurement(workload, architecture) else { return [Comparison]() }
        return references.map { reference in
          Comparison(
            workload: workload.id,
            architecture: architecture,
            reference: reference.cell.architecture,
            ratio: measured.nanosecondsPerOperation / reference.nanosecondsPerOperation
          )
        }
      }
    }
  }

  /// A ratio between two cells of one row.
  struct Comparison {
    let workload: String
    let architecture: Architecture
    let reference: Architecture
    let ratio: Double
  }

  /// The goals judged, in row order, as printed lines; none in a quick run.
  var verdicts: [String] {
    guard !quick else { return [] }
    return measurements.compactMap { measured in
      guard let goal = measured.cell.goal else { return nil }
      let shown = isShown(measured)
      // A slower variant is judged too when it has a goal of its own (W1's Store with a
      // filtered logging middleware: at most twice the cell's time).
      if !shown {
        let cell = measurement(measured.cell.workload, measured.cell.architecture)
        guard cell?.cell.goal?.description != goal.description else { return nil }
      }
      let verdict = goal.judge(measured) { architecture, variant in
        guard let variant else { return self.measurement(measured.cell.workload, architecture) }
        return self.measurements.first {
          $0.cell.workload == measured.cell.workload && $0.cell.architecture == architecture
            && $0.cell.variant == variant
        }
      }
      return "  \(verdict.met ? "met   " : "MISSED") \(measured.cell.workload.id) "
        + "\(measured.cell.architecture.rawValue)"
        + (shown ? "" : measured.cell.variant.map { " (\($0))" } ?? "")
        + " \(goal.description): \(verdict.detail)"
    }
  }

  // MARK: Text

  /// The whole report, in Markdown.
  func text() -> String {
    var lines = [context, ""]
    lines += timeTable()
    let notes =
      measurements.filter(isShown).flatMap { measured in
        (measured.cell.notes?(measured) ?? []).map {
          "\(measured.cell.workload.id) \(measured.cell.architecture.rawValue): \($0)"
        }
      } + variantNotes
    if !notes.isEmpty {
      lines.append("")
      lines += notes
    }
    lines.append("")
    lines += resourceTable()
    let verdicts = verdicts
    if !verdicts.isEmpty {
      lines.append("")
      lines.append("Goals:")
      lines += verdicts
    }
    return lines.joined(separator: "\n")
  }

  /// Rows are workloads, columns architectures; each cell holds the median wall time of one
  /// run's operations, operations per second and the ratio to W0; under it, each library cell
  /// over the reference cells of its row.
  func timeTable() -> [String] {
    let header = ["id", "workload", "N"] + architectures.map(\.rawValue)
    var rows: [[String]] = []
    for workload in workloads {
      let n = measurements.first { $0.cell.workload == workload }?.n ?? workload.n
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
    var lines = Self.table(header: header, rows: rows, leftColumns: 2)
    lines.append("")
    lines.append(
      "Cells: median wall time of one run's operations · operations per second · time per "
        + "operation relative to W0 (\(runs) run\(runs == 1 ? "" : "s") after a warm-up"
        + "\(quick ? "; quick run: small N, not comparable" : ""))."
    )
    let peakRows = workloads.filter(\.showsPeakMemory).map(\.id)
    if !peakRows.isEmpty {
      lines.append(
        "\(peakRows.joined(separator: ", ")): · peak resident memory of the operations over "
          + "the resident memory before them (median of the runs; MB = 10⁶ bytes)."
      )
    }
    for comparison in comparisons {
      lines.append(
        "\(comparison.workload): \(comparison.architecture.rawValue) / "
          + "\(comparison.reference.rawValue) = ×\(Format.fixed(comparison.ratio, 2)) "
          + "per operation"
      )
    }
    return lines
  }

  /// Per cell, the allocations of its operations, per run and per action, the process's peak
  /// resident memory and the instructions per action.
  func resourceTable() -> [String] {
    let header = [
      "cell", "N", "allocations per run", "allocations per action", "peak RSS",
      "instructions per action",
    ]
    var rows: [[String]] = []
    for measured in measurements {
      let resources = resources[measured.cell.label]
      var row = [measured.cell.label, Format.grouped(measured.n)]
      if let allocations = resources?.allocations {
        let perRun =
          allocations.fewest == allocations.most
          ? Format.grouped(allocations.median)
          : "\(Format.grouped(allocations.median)) "
            + "(\(Format.grouped(allocations.fewest))–\(Format.grouped(allocations.most)))"
        row += [perRun, Format.perAction(allocations.median, n: measured.n)]
      } else {
        row += ["—", "—"]
      }
      row.append(resources?.peakResident.map { Format.megabytes($0) } ?? "—")
      row.append(
        resources?.instructions.map { Format.fixed(Double($0) / Double(measured.n), 1) } ?? "—"
      )
      rows.append(row)
    }
    var lines = Self.table(header: header, rows: rows, leftColumns: 1)
    lines.append("")
    lines.append(
      "Allocations: mallocCountTotal in one run's operations (median, and the range when the "
        + "runs differ), and that over N. Peak RSS: the process's peak resident memory, as the "
        + "tool samples it\(quick ? " (not sampled in a quick run)" : ""). Instructions: where "
        + "the kernel gives perf counters (— where it does not; see README)."
    )
    return lines
  }

  /// A Markdown table, the first `leftColumns` aligned left and the others right.
  static func table(header: [String], rows: [[String]], leftColumns: Int) -> [String] {
    let widths = header.indices.map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      let padded = cells.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column < leftColumns ? cell + padding : padding + cell
      }
      return "| " + padded.joined(separator: " | ") + " |"
    }
    let rule = widths.enumerated().map { column, width in
      column < leftColumns
        ? String(repeating: "-", count: width)
        : String(repeating: "-", count: width - 1) + ":"
    }
    return [line(header), "| " + rule.joined(separator: " | ") + " |"] + rows.map(line)
  }
}

extension Format {
  /// `count` over `n`, as allocations per action: `0`, `0.0001`, `2.000`.
  static func perAction(_ count: Int, n: Int) -> String {
    guard count != 0 else { return "0" }
    let value = Double(count) / Double(n)
    return value < 0.01 ? fixed(value, 5) : fixed(value, 3)
  }
}
