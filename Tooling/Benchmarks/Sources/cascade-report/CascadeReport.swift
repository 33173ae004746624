import Benchmark
import CascadeWorkloads
import Foundation

/// Prints the side-by-side report of a run of the benchmarks, from what the benchmark tool
/// stored, and gates the allocations per action.
///
/// ```sh
/// swift package --allow-writing-to-package-directory benchmark baseline update cascade
/// swift run -c release cascade-report cascade
/// swift run -c release cascade-report cascade --check-allocations allocations-baseline.tsv
/// ```
@main
struct CascadeReport {
  static let usage = """
    USAGE: cascade-report <baseline> [--package <path>] [--check-allocations <file>]
                          [--write-allocations <file>]

    Prints the side-by-side table of a run of `swift package benchmark`, stored with
    `swift package --allow-writing-to-package-directory benchmark baseline update <baseline>`.

    ARGUMENTS:
      <baseline>      The stored baseline's name, or the path of its results.json.

    OPTIONS:
      --package <path>             The benchmarks' package folder (default: the current folder).
      --check-allocations <file>   Compare the W1–W5 cells' allocations with <file>; exit 1 if a
                                   cell allocates more, or is missing, or is new.
      --write-allocations <file>   Write the W1–W5 cells' allocations to <file>, as a baseline
                                   (keeping the allowances <file> had).
      -h, --help                   Show this help.
    """

  static func main() {
    var arguments = Array(CommandLine.arguments.dropFirst())[...]
    var baseline: String?
    var package = FileManager.default.currentDirectoryPath
    var checkPath: String?
    var writePath: String?
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
      case "--check-allocations": checkPath = value()
      case "--write-allocations": writePath = value()
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
    var allocations: [(cell: Cell, n: Int, allocations: CellResults.Summary)] = []
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
      let malloc = results.statistics(.mallocCountTotal)
      resources[cell.label] = Report.Resources(
        allocations: malloc,
        peakResident: results.statistics(.peakMemoryResident)?.most,
        instructions: results.statistics(.instructions)?.median
      )
      if let malloc { allocations.append((cell, n, malloc)) }
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

    let run = AllocationBaseline(allocations)
    if let writePath {
      do {
        // A cell's allowance is a decision, not a measurement: keep the file's.
        let previous = try? AllocationBaseline(contentsOf: writePath)
        let text = run.keepingAllowances(of: previous).text
        try text.write(toFile: writePath, atomically: true, encoding: .utf8)
        printError("wrote the allocations of \(run.entries.count) cells to \(writePath)")
      } catch {
        fail("cannot write \(writePath): \(error)", 1)
      }
    }
    if let checkPath {
      let committed: AllocationBaseline
      do {
        committed = try AllocationBaseline(contentsOf: checkPath)
      } catch {
        fail("cannot read \(checkPath): \(error)", 1)
      }
      let (lines, passed) = committed.check(run)
      print("")
      print("Allocations against \(checkPath) (any increase fails):")
      for line in lines { print(line) }
      guard passed else {
        fail("a cell allocates more than its baseline, or the cells differ from it", 1)
      }
    }
  }

  static func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }

  static func fail(_ message: String, _ code: Int32) -> Never {
    printError("cascade-report: \(message)")
    exit(code)
  }
}
