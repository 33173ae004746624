/// A goal a cell is held to in a full run.
///
/// The reporter prints the verdict under the table. Quick runs (`CASCADE_BENCHMARKS=quick`) judge
/// nothing: their N is too small to mean anything.
package struct Goal: Sendable {
  /// What the goal asks, such as `≥ 10.0 M/s`.
  package let description: String
  /// Judges a measurement; the second argument finds another cell of the same row: the one
  /// the table shows for an architecture (`nil` variant: the fastest of its variants), or
  /// one variant of it.
  package let judge:
    @Sendable (CellMeasurement, _ cell: (Architecture, _ variant: String?) -> CellMeasurement?)
      -> Verdict

  /// Whether a cell met its goal, and what it measured.
  package struct Verdict: Sendable, Codable {
    package let met: Bool
    package let detail: String
  }

  /// At least `rate` operations per second at the median time.
  static func minimumRate(_ rate: Double) -> Goal {
    Goal(description: "≥ \(Format.rate(rate))") { measured, _ in
      Verdict(
        met: measured.operationsPerSecond >= rate,
        detail: Format.rate(measured.operationsPerSecond)
      )
    }
  }

  /// At most `ratio` times the time per operation of the `reference` cell of the same row.
  ///
  /// With a `variant`, the reference is that variant of the column rather than the one the
  /// table shows (W4's plain round trip that makes the Store's thread hops).
  static func maximumRatio(
    _ ratio: Double,
    to reference: Architecture,
    variant: String? = nil
  ) -> Goal {
    let name = reference.rawValue + (variant.map { " (\($0))" } ?? "")
    let digits = ratio < 1 ? 2 : 1
    return Goal(description: "≤ ×\(Format.fixed(ratio, digits)) \(name)") { measured, cell in
      // A cell run alone (`--cell`) would find itself as its column's cell.
      guard let other = cell(reference, variant), other.cell.label != measured.cell.label else {
        return Verdict(met: false, detail: "no \(name) cell to compare with")
      }
      let measuredRatio = measured.nanosecondsPerOperation / other.nanosecondsPerOperation
      return Verdict(met: measuredRatio <= ratio, detail: "×\(Format.fixed(measuredRatio, 2))")
    }
  }

  /// A peak resident memory during the operations at most `megabytes` MB (10⁶ bytes) above the
  /// resident memory before them, measured by ``MemoryProbe`` (the benchmark must measure
  /// memory; Linux only).
  static func maximumPeakGrowth(megabytes: Double) -> Goal {
    Goal(description: "peak ≤ baseline + \(Format.fixed(megabytes, 0)) MB") { measured, _ in
      guard let memory = measured.memory else {
        return Verdict(met: false, detail: "memory not measured (Linux only)")
      }
      guard memory.peakWasReset else {
        return Verdict(met: false, detail: "VmHWM could not be reset: no peak of the run alone")
      }
      return Verdict(
        met: Double(memory.growthBytes) <= megabytes * 1e6,
        detail: "peak \(Format.megabytes(memory.growthBytes, signed: true)) over a baseline of "
          + "\(Format.megabytes(memory.baselineBytes))"
      )
    }
  }

  /// Every goal of `goals`.
  static func all(_ goals: [Goal]) -> Goal {
    Goal(description: goals.map(\.description).joined(separator: " and ")) { measured, cell in
      let verdicts = goals.map { $0.judge(measured, cell) }
      return Verdict(
        met: verdicts.allSatisfy(\.met),
        detail: verdicts.map(\.detail).joined(separator: "; ")
      )
    }
  }
}
