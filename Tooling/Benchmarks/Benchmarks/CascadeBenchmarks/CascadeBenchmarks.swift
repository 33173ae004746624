import Benchmark
import CascadeWorkloads

/// Every cell of every workload (`Cell.all`), as one benchmark each, named by its label
/// (`W1 Store`, `W1 Reactor (BaseReactor subclass)`).
///
/// Each iteration is one checked run of the cell over N operations (``CheckedRuns``): the
/// measurement covers its operations alone, from ``Operations/begin()`` to ``Operations/end()``.
/// Beside wall clock, malloc count, peak resident memory and instructions (where the kernel
/// gives perf counters), each reports its N, the values its subscribers received, its counters
/// and, for W3 and W7, what it did to the resident memory, as custom metrics that
/// `cascade-report` reads back.
let benchmarks: @Sendable () -> Void = {
  let mode = RunMode.current
  for cell in Cell.all {
    let runs = CheckedRuns(cell, n: mode.n(for: cell.workload))
    var custom = [CustomMetricName.operations, CustomMetricName.valuesReceived]
    custom += Outcome.counterNames
    if cell.measuresMemory {
      custom += MemoryUsage.metricNames
    }
    Benchmark(
      cell.label,
      configuration: .init(
        metrics: mode.metrics + custom.map(BenchmarkMetric.cascade),
        warmupIterations: 1,
        maxDuration: .seconds(3_600),
        maxIterations: mode.runs
      )
    ) { benchmark in
      measure(runs, benchmark)
    }
  }
}

/// Runs the cell once, measuring its operations, and reports its custom metrics.
func measure(_ runs: CheckedRuns, _ benchmark: Benchmark) {
  Operations.onBegin = { benchmark.startMeasurement() }
  Operations.onEnd = { benchmark.stopMeasurement() }
  defer {
    Operations.onBegin = nil
    Operations.onEnd = nil
  }
  do {
    var outcome: Outcome
    var memory: MemoryUsage?
    if runs.cell.measuresMemory {
      (outcome, memory) = try MemoryProbe.measure { () throws(CheckedRuns.Failure) in
        try runs.run()
      }
    } else {
      outcome = try runs.run()
    }
    var values = [
      CustomMetricName.operations: runs.n,
      CustomMetricName.valuesReceived: outcome.checksum.count,
    ]
    values.merge(outcome.counters) { first, _ in first }
    values.merge(memory?.metrics ?? [:]) { first, _ in first }
    for (name, value) in values {
      benchmark.measurement(.cascade(name), value)
    }
  } catch {
    benchmark.error("\(error)")
  }
}

extension BenchmarkMetric {
  /// A custom metric of the cells, by its name (``CustomMetricName``); not scaled.
  static func cascade(_ name: String) -> BenchmarkMetric {
    .custom(name, polarity: .prefersSmaller, useScalingFactor: false)
  }
}
