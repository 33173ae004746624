import Benchmark
import CascadeWorkloads
import Foundation

/// How the cells run, from the environment.
///
/// - `CASCADE_BENCHMARKS=quick`: every workload at its small `quickN`, 3 runs after a warm-up,
///   measuring wall clock and malloc count only: a smoke run whose malloc counts are exact, the
///   one CI gates. (The tool's other metrics allocate inside the measurement: it reads
///   `/proc/self/stat` and `/proc/self/io` around the operations for instructions and peak
///   memory, 16 allocations a run, and samples the peak memory from a thread every 5 ms.)
/// - otherwise: every workload at its N, 5 runs after a warm-up (BENCHMARKS.md asks for at least
///   5), adding peak resident memory and instructions (where the kernel gives perf counters).
/// - `CASCADE_BENCHMARK_RUNS=<n>`: that many runs instead.
struct RunMode {
  let quick: Bool
  let runs: Int

  static var current: RunMode {
    let environment = ProcessInfo.processInfo.environment
    let quick = environment["CASCADE_BENCHMARKS"] == "quick"
    let runs = environment["CASCADE_BENCHMARK_RUNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    return RunMode(quick: quick, runs: runs ?? (quick ? 3 : 5))
  }

  /// The N of `workload`'s runs.
  func n(for workload: Workload) -> Int {
    quick ? workload.quickN : workload.n
  }

  /// The tool's metrics.
  var metrics: [BenchmarkMetric] {
    let exact: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    return quick ? exact : exact + [.peakMemoryResident, .instructions]
  }
}
