import CascadeWorkloads
import Foundation

/// The allocation gate: the allocations of each W1–W5 cell's operations, against a committed
/// baseline; any increase fails.
///
/// The file has one line per cell, tab-separated: the cell's label, N, the allocations of one
/// run's operations (mallocCountTotal), for the reader that over N, and optionally an allowance:
/// how many more allocations per run the cell may make. A run is compared at the same N (CI's
/// quick run), by its fewest allocations over the runs: after the warm-up they are the same in
/// every run of a synchronous cell, and the fewest is the count least disturbed by the
/// asynchronous ones' threads. Only a cell whose count depends on how threads interleave has an
/// allowance (W4b plain; see README, "The allocation gate"); every other cell fails on one
/// allocation more.
struct AllocationBaseline {
  struct Entry: Equatable {
    let label: String
    let n: Int
    let allocations: Int
    /// How many more allocations per run pass (0 for every cell but those written with one).
    var allowance = 0
  }

  var entries: [Entry]

  /// Whether the gate covers `cell`: W1 to W5 (W4b included).
  static func gates(_ cell: Cell) -> Bool {
    ["W1", "W2", "W3", "W4", "W5"].contains { cell.workload.id.hasPrefix($0) }
  }

  /// The baseline of a run: its gated cells' fewest allocations per run.
  init(_ measured: [(cell: Cell, n: Int, allocations: CellResults.Summary)]) {
    entries = measured.filter { Self.gates($0.cell) }.map {
      Entry(label: $0.cell.label, n: $0.n, allocations: $0.allocations.fewest)
    }
  }

  /// Reads the file at `path`.
  init(contentsOf path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    entries = try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let fields = line.split(separator: "\t").map(String.init)
      guard fields.count >= 3, let n = Int(fields[1]), let allocations = Int(fields[2]),
        let allowance = fields.count >= 5 ? Int(fields[4]) : 0
      else {
        throw GateError(description: "\(path): cannot read the line '\(line)'")
      }
      return Entry(label: fields[0], n: n, allocations: allocations, allowance: allowance)
    }
  }

  /// The file's text.
  var text: String {
    let lines = entries.map { entry in
      [
        entry.label, "\(entry.n)", "\(entry.allocations)",
        Format.perAction(entry.allocations, n: entry.n),
      ].joined(separator: "\t") + (entry.allowance == 0 ? "" : "\t\(entry.allowance)")
    }
    return
      "# cell\tN\tallocations per run (mallocCountTotal, fewest of the runs)\tper action"
      + "\t[allowance: more allocations per run that pass]\n"
      + lines.joined(separator: "\n") + "\n"
  }

  /// This run's counts, with the allowances of `previous` for the cells it has.
  func keepingAllowances(of previous: AllocationBaseline?) -> AllocationBaseline {
    var result = self
    for index in result.entries.indices {
      let label = result.entries[index].label
      result.entries[index].allowance =
        previous?.entries.first { $0.label == label }?.allowance ?? 0
    }
    return result
  }

  /// Compares `run` with this baseline: the lines to print, and whether the gate passes.
  ///
  /// It fails when a cell allocates more than its baseline, when a cell of the baseline is
  /// missing from the run or ran at another N, and when the run has a gated cell the baseline
  /// lacks (so that a new cell cannot slip past the gate).
  func check(_ run: AllocationBaseline) -> (lines: [String], passed: Bool) {
    var lines: [String] = []
    var passed = true
    for entry in entries {
      guard let measured = run.entries.first(where: { $0.label == entry.label }) else {
        lines.append("  MISSING \(entry.label) (baseline \(entry.allocations) at N = \(entry.n))")
        passed = false
        continue
      }
      guard measured.n == entry.n else {
        lines.append(
          "  N       \(entry.label): the run has N = \(measured.n), the baseline N = \(entry.n); "
            + "run with CASCADE_BENCHMARKS=quick, or write a new baseline"
        )
        passed = false
        continue
      }
      let verdict: String
      switch measured.allocations {
      case ..<entry.allocations: verdict = "fewer"
      case entry.allocations: verdict = "ok"
      case ...(entry.allocations + entry.allowance): verdict = "ok (within the allowance)"
      default:
        verdict = "MORE"
        passed = false
      }
      lines.append(
        "  \(verdict.count < 7 ? verdict.padding(toLength: 7, withPad: " ", startingAt: 0) : verdict) "
          + "\(entry.label): "
          + "\(measured.allocations) allocations per run, "
          + "\(Format.perAction(measured.allocations, n: measured.n)) per action "
          + "(baseline \(entry.allocations), \(Format.perAction(entry.allocations, n: entry.n))"
          + (entry.allowance == 0 ? ")" : "; allowance +\(entry.allowance))")
      )
    }
    for measured in run.entries where !entries.contains(where: { $0.label == measured.label }) {
      lines.append("  NEW     \(measured.label): not in the baseline; write a new baseline")
      passed = false
    }
    return (lines, passed)
  }
}

/// A baseline file that cannot be read.
struct GateError: Error, CustomStringConvertible {
  let description: String
}
