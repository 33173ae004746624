import Benchmark
import CascadeWorkloads
import Foundation

/// Prints the side-by-side report of a run of the benchmarks, from what the benchmark tool
/// stored.
///
/// ```sh
/// swift package --allow-writing-to-package-directory benchmark baseline update cascade
/// swift run -c release cascade-report cascade
/// ```
@main
struct CascadeReport {
  static let usage = """
    USAGE: cascade-report <baseline> [--package <path>]

    Prints the side-by-side table of a run of `swift package benchmark`, stored with
    `swift package --allow-writing-to-package-directory benchmark baseline update <baseline>`.

    ARGUMENTS:
      <baseline>      The stored baseline's name, or the path of its results.json.

    OPTIONS:
      --package <path>  The benchmarks' package folder (default: the current folder).
      -h, --help        Show this help.
    """

  static func main() {
    var arguments = Array(CommandLine.arguments.dropFirst())[...]
    var baseline: String?
    var package = FileManager.default.currentDirectoryPath
    while let argument = arguments.popFirst() {
      func value() -> String {
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value", 64) }
        return value
      }
      switch argument {
      case "-h", "--help":
        print(usage)
        return
      case "--package": package = value()
      default:
        guard baseline == nil, !argument.hasPrefix("-") else {
          fail("unknown argument '\(argument)'\n\n\(usage)", 64)
        }
        baseline = argument
      }
    }
    guard let baseline else { fail("no baseline named\n\n\(usage)", 64) }

    let path =
      baseline.hasSuffix(".json")
      ? baseline : StoredResults.path(baseline: baseline, package: package)
    let stored: StoredResults
    do {
      stored = try StoredResults.read(path)
    } catch {
      fail(
        "cannot read \(path): \(error)\n(store a run with `swift package "
          + "--allow-writing-to-package-directory benchmark baseline update \(baseline)`)",
        1
      )
    }

    var measurements: [CellMeasurement] = []
    var resources: [String: Report.Resources] = [:]
    var runs = 0
    for cell in Cell.all {
      guard let results = stored.results(cell.label) else { continue }
      guard
        let n = results.custom(CustomMetricName.operations),
        let wallClock = results.statistics(.wallClock)
      else {
        printError("warning: \(cell.label) has no N or no wall clock in \(path); left out")
        continue
      }
      runs = max(runs, wallClock.count)
      let custom = results.customMedians
      measurements.append(
        CellMeasurement(
          cell: cell,
          n: n,
          median: Double(wallClock.median) / 1e9,
          valuesReceived: custom[CustomMetricName.valuesReceived] ?? 0,
          counters: custom.filter { Outcome.counterNames.contains($0.key) },
          memory: MemoryUsage(metrics: custom)
        )
      )
      resources[cell.label] = Report.Resources(
        allocations: results.statistics(.mallocCountTotal),
        peakResident: results.statistics(.peakMemoryResident)?.most,
        instructions: results.statistics(.instructions)?.median
      )
    }
    guard !measurements.isEmpty else { fail("no cell's results in \(path)", 1) }

    let machine = stored.machine
    let report = Report(
      measurements: measurements,
      resources: resources,
      quick: measurements.contains { $0.n != $0.cell.workload.n },
      runs: runs,
      context: "Baseline '\(stored.baselineName)' (\(path)): \(machine.hostname), "
        + "\(machine.processors) processors (\(machine.processorType)), \(machine.memory) GB, "
        + "kernel \(machine.kernelVersion)."
    )
    print(report.text())
  }

  static func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }

  static func fail(_ message: String, _ code: Int32) -> Never {
    printError("cascade-report: \(message)")
    exit(code)
  }
}
