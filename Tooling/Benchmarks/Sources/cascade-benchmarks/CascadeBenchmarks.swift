import Foundation

/// Runs the benchmark workloads of BENCHMARKS.md and prints a table of the results.
///
/// Build and run in release mode from `Tooling/Benchmarks`:
///
/// ```sh
/// swift build -c release
/// .build/release/cascade-benchmarks --filter W6 --json results.json
/// .build/release/cascade-benchmarks --quick      # a smoke run: small N, results checked
/// .build/release/cascade-benchmarks --list --filter W1
/// .build/release/cascade-benchmarks --cell "W1 Store" --n 100000 --runs 1   # one cell alone
/// ```
@main
struct CascadeBenchmarks {
  static func main() {
    let options: Options
    do {
      guard let parsed = try Options.parse(Array(CommandLine.arguments.dropFirst())) else {
        print(Options.usage)
        return
      }
      options = parsed
    } catch {
      printError("error: \(error)\n\n\(Options.usage)")
      exit(64)
    }

    let selected = Benchmark.all.filter(options.selects)
    for label in options.cells where !selected.contains(where: { options.names(label, $0) }) {
      printError("error: no cell is named '\(label)'; --list prints the cells' names")
      exit(64)
    }
    if options.list {
      for benchmark in selected { print(benchmark.label) }
      return
    }

    #if DEBUG
    let configuration = "debug"
    printError("warning: a debug build; timings mean little. Build with `swift build -c release`.")
    #else
    let configuration = "release"
    #endif

    if options.runs < 5 && !options.quick {
      printError("warning: fewer than 5 timed runs; BENCHMARKS.md asks for at least 5.")
    }
    if options.n != nil {
      printError("warning: --n overrides the workloads' N; the results are not comparable.")
    }

    var measurements: [Measurement] = []
    do {
      for benchmark in selected {
        let n = options.n(for: benchmark.workload)
        printError(
          "\(benchmark.label): N = \(n), "
            + "1 warm-up + \(options.runs) runs…"
        )
        measurements.append(try Measurement.take(benchmark, n: n, runs: options.runs))
      }
      try checkRowsAgree(measurements)
    } catch {
      printError("error: \(error)")
      exit(1)
    }

    let report = Report(
      measurements: measurements,
      runs: options.runs,
      quick: options.quick,
      configuration: configuration,
      date: Date()
    )
    print(report.table())
    if let path = options.jsonPath {
      do {
        try report.json().write(to: URL(fileURLWithPath: path))
        printError("wrote \(path)")
      } catch {
        printError("error: cannot write \(path): \(error)")
        exit(1)
      }
    }
  }

  /// The architectures of one workload must have produced the same result: a faster cell that
  /// did different work would be meaningless.
  static func checkRowsAgree(_ measurements: [Measurement]) throws(Measurement.Failure) {
    for measured in measurements {
      let reference = measurements.first { $0.benchmark.workload == measured.benchmark.workload }
      guard let reference, reference.checksum != measured.checksum else { continue }
      throw Measurement.Failure(
        measured.benchmark,
        "produced \(measured.checksum), but \(reference.benchmark.label) "
          + "produced \(reference.checksum)"
      )
    }
  }

  static func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }
}
