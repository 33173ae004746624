import CascadeWorkloads

/// The command line:
/// `cascade-cell [--filter ID]... [--only COLUMN]... [--cell LABEL]... [--list] [--runs N]
/// [--n N]`.
struct Options: Sendable {
  /// Workload id prefixes to run; empty runs everything.
  ///
  /// `W6` selects W6 and W6b. W0 always runs, as in the benchmarks' table.
  var filters: [String] = []
  /// Columns to run (architecture names, case-insensitive); empty runs every column.
  ///
  /// W0 always runs, and the plain and hand-written references of a selected workload too.
  var columns: [String] = []
  /// Cells to run, by their label (case-insensitive): `W1 Store`, or with the variant,
  /// `W1 Reactor (BaseReactor subclass)`; empty runs what `filters` and `columns` select.
  ///
  /// The cells named run alone: no W0 and no reference column, so that a profiler sees the
  /// work of one cell only (`Tooling/callgrind.sh`).
  var cells: [String] = []
  /// Print the labels of the selected cells, one a line, instead of running them.
  var list = false
  /// Runs per cell after one warm-up run.
  var runs = 1
  /// Overrides every workload's N.
  var n: Int?

  static let usage = """
    USAGE: cascade-cell [--filter <id>]... [--only <column>]... [--cell <label>]... [--list]
                        [--runs <n>] [--n <count>]

    Runs cells of the benchmarks alone, every run checked, measuring nothing: for profilers
    (Tooling/callgrind.sh). The measurements come from `swift package benchmark`.

    OPTIONS:
      --filter <id>   Run the workloads whose id starts with <id> (case-insensitive); repeat or
                      separate with commas for several. W0 always runs.
      --only <column> Run only these columns (Store, Reactor, Feedback, Streams) besides the
                      plain and hand-written references; repeat or separate with commas.
      --cell <label>  Run only this cell, named as --list prints it ("W1 Store",
                      "W1 Reactor (BaseReactor subclass)"): no W0, no reference column, so a
                      profiler sees this cell alone. Repeat for several; not with --filter or
                      --only.
      --list          Print the labels of the cells the other options select, and exit.
      --runs <n>      Runs per cell, after one warm-up run (default: 1).
      --n <count>     Override every workload's N (default: each workload's N).
      -h, --help      Show this help.
    """

  /// What went wrong with the command line.
  struct ParseError: Error, CustomStringConvertible {
    let description: String
  }

  /// Parses `arguments` (without the program name); `nil` means help was asked for.
  static func parse(_ arguments: [String]) throws(ParseError) -> Options? {
    var options = Options()
    var remaining = arguments[...]
    func value(for flag: String) throws(ParseError) -> String {
      guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
        throw ParseError(description: "\(flag) needs a value")
      }
      return value
    }
    func positive(_ text: String, for flag: String) throws(ParseError) -> Int {
      guard let number = Int(text.replacing("_", with: "")), number > 0 else {
        throw ParseError(description: "\(flag) needs a positive integer, not '\(text)'")
      }
      return number
    }
    while let argument = remaining.popFirst() {
      // Accept `--flag=value` as well as `--flag value`.
      var flag = argument
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        flag = String(argument[..<equals])
        let value = String(argument[argument.index(after: equals)...])
        remaining.insert(value, at: remaining.startIndex)
      }
      switch flag {
      case "-h", "--help":
        return nil
      case "--filter":
        options.filters += try value(for: flag).split(separator: ",").map(String.init)
      case "--only":
        options.columns += try value(for: flag).split(separator: ",").map(String.init)
      case "--cell":
        options.cells.append(try value(for: flag))
      case "--list":
        options.list = true
      case "--runs":
        options.runs = try positive(try value(for: flag), for: flag)
      case "--n":
        options.n = try positive(try value(for: flag), for: flag)
      default:
        throw ParseError(description: "unknown argument '\(argument)'")
      }
    }
    if !options.cells.isEmpty && !(options.filters.isEmpty && options.columns.isEmpty) {
      throw ParseError(
        description: "--cell names its cells; it cannot be combined with --filter or --only"
      )
    }
    return options
  }

  /// Whether `cell` runs: the cells named with `--cell`, else those of the selected workloads
  /// and columns.
  func selects(_ cell: Cell) -> Bool {
    guard cells.isEmpty else { return cells.contains { names($0, cell) } }
    return selects(cell.workload) && selects(cell.architecture)
  }

  /// Whether `label`, given with `--cell`, names `cell`.
  func names(_ label: String, _ cell: Cell) -> Bool {
    label.lowercased() == cell.label.lowercased()
  }

  /// Whether `architecture`'s column is selected.
  func selects(_ architecture: Architecture) -> Bool {
    if columns.isEmpty || architecture.isReference { return true }
    return columns.contains { $0.lowercased() == architecture.rawValue.lowercased() }
  }

  /// Whether `workload` is selected.
  func selects(_ workload: Workload) -> Bool {
    if workload == .baseline || filters.isEmpty { return true }
    return filters.contains { workload.id.lowercased().hasPrefix($0.lowercased()) }
  }
}
