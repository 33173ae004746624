/// The timings of one benchmark: a warm-up run, then `runs` timed runs.
struct Measurement: Sendable {
  let benchmark: Benchmark
  let n: Int
  /// Wall time of each timed run, in seconds, in the order they ran.
  let samples: [Double]
  /// What every run produced (they must all agree).
  let checksum: Checksum
  /// The counters the last run reported.
  let counters: [String: Int]
  /// What one extra, untimed, run did to memory, for the benchmarks that measure it.
  let memory: MemoryUsage?

  /// The median wall time of one run, in seconds.
  var median: Double {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    guard sorted.count.isMultiple(of: 2) else { return sorted[middle] }
    return (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// Operations per second at the median time.
  var operationsPerSecond: Double { Double(n) / median }

  /// Nanoseconds per operation at the median time.
  var nanosecondsPerOperation: Double { median * 1e9 / Double(n) }

  /// Runs `benchmark` once to warm up, then `runs` times against the clock, and checks that every
  /// run produced the same, expected, result; then, if the benchmark measures memory, once more
  /// under ``MemoryProbe``.
  static func take(_ benchmark: Benchmark, n: Int, runs: Int) throws(Failure) -> Measurement {
    func runOnce() throws(Failure) -> Outcome {
      do {
        return try benchmark.run(n)
      } catch {
        throw Failure(benchmark, "\(error)")
      }
    }

    let clock = ContinuousClock()
    var outcome = try runOnce()
    let checksum = outcome.checksum
    if let expected = benchmark.expected?(n), expected != checksum {
      throw Failure(benchmark, "produced \(checksum), expected \(expected)")
    }
    var samples: [Double] = []
    for _ in 0..<runs {
      let start = clock.now
      outcome = try runOnce()
      let elapsed = clock.now - start
      guard outcome.checksum == checksum else {
        throw Failure(
          benchmark,
          "produced \(outcome.checksum) after \(checksum) in the warm-up run"
        )
      }
      samples.append(elapsed.seconds)
    }
    var memory: MemoryUsage?
    if benchmark.measuresMemory {
      (outcome, memory) = try MemoryProbe.measure(runOnce)
      guard outcome.checksum == checksum else {
        throw Failure(
          benchmark,
          "produced \(outcome.checksum) after \(checksum) in the warm-up run"
        )
      }
    }
    return Measurement(
      benchmark: benchmark,
      n: n,
      samples: samples,
      checksum: checksum,
      counters: outcome.counters,
      memory: memory
    )
  }

  /// A benchmark that produced a wrong or unstable result.
  struct Failure: Error, CustomStringConvertible {
    let description: String

    init(_ benchmark: Benchmark, _ problem: String) {
      description = "\(benchmark.label): \(problem)"
    }
  }
}

extension Duration {
  /// This duration in seconds.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}
