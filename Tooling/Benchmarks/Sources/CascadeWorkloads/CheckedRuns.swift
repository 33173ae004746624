/// Runs one cell repeatedly over the same N and checks every run's result.
///
/// A run must produce the cell's expected checksum where the workload knows it, else the same
/// checksum as the first cell of its row (computed once, by running that cell); and every run
/// must produce the same checksum as the first. A faster cell is then never one that did less
/// work. The benchmarks (one run per iteration) and `cascade-cell` both run cells through it.
package final class CheckedRuns {
  package let cell: Cell
  package let n: Int
  /// The checksum every run must produce, once known: the expected one, the row reference's, or
  /// the first run's.
  private var required: Checksum?
  /// Where ``required`` came from, for the message of a failed check.
  private var source = "the first run"

  package init(_ cell: Cell, n: Int) {
    self.cell = cell
    self.n = n
  }

  /// Computes what the runs must produce before they start: the expected checksum, or the
  /// checksum of the row's first cell (one run of that cell, outside any measurement).
  package func prepare() throws(Failure) {
    guard required == nil else { return }
    if let expected = cell.expected?(n) {
      required = expected
      source = "the expected result"
    } else if let reference = cell.rowReference {
      do {
        required = try reference.run(n).checksum
        source = "\(reference.label)"
      } catch {
        throw Failure(reference, "\(error)")
      }
    }
  }

  /// Runs the cell once and checks its result.
  package func run() throws(Failure) -> Outcome {
    try prepare()
    let outcome: Outcome
    do {
      outcome = try cell.run(n)
    } catch {
      throw Failure(cell, "\(error)")
    }
    guard let required else {
      required = outcome.checksum
      return outcome
    }
    guard outcome.checksum == required else {
      throw Failure(cell, "produced \(outcome.checksum), but \(source) produced \(required)")
    }
    return outcome
  }

  /// A cell that produced a wrong or unstable result.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String

    init(_ cell: Cell, _ problem: String) {
      description = "\(cell.label): \(problem)"
    }
  }
}
