import CascadeWorkloads
import Foundation

/// Runs cells of the benchmarks alone, outside the benchmark tool: for profilers such as
/// valgrind's callgrind (`Tooling/callgrind.sh`), which count what a process executes.
///
/// It measures nothing itself: each selected cell runs once to warm up and `--runs` times more,
/// every run checked as in the benchmarks (``CheckedRuns``), and it prints one line per cell.
///
/// ```sh
/// swift build -c release
/// .build/release/cascade-cell --list --filter W1
/// .build/release/cascade-cell --cell "W1 Store" --n 100000 --runs 1
/// ```
@main
struct CascadeCell {
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

    let selected = Cell.all.filter(options.selects)
    for label in options.cells where !selected.contains(where: { options.names(label, $0) }) {
      printError("error: no cell is named '\(label)'; --list prints the cells' names")
      exit(64)
    }
    if options.list {
      for cell in selected { print(cell.label) }
      return
    }

    #if DEBUG
    printError("warning: a debug build; build with `swift build -c release` to profile.")
    #endif

    for cell in selected {
      let n = options.n ?? cell.workload.n
      let runs = CheckedRuns(cell, n: n)
      do {
        for _ in 0..<(1 + options.runs) { _ = try runs.run() }
      } catch {
        printError("error: \(error)")
        exit(1)
      }
      print("\(cell.label): N = \(n), 1 warm-up + \(options.runs) runs, results checked")
    }
  }

  static func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }
}
