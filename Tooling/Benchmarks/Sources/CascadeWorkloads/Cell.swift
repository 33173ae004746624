/// A workload: one row of the results table (see shared BENCHMARKS.md for the definitions).
package struct Workload: Sendable, Hashable {
  /// The id from BENCHMARKS.md, such as `W6`; variants add a letter (`W6b`).
  package let id: String
  /// A short description for the table.
  package let name: String
  /// The number of operations one run performs.
  package let n: Int
  /// The number of operations of a quick run (`CASCADE_BENCHMARKS=quick`): small, for a smoke
  /// run that checks results and counts allocations.
  package let quickN: Int
  /// Whether the table's cells show the peak resident memory of the operations (W7), beside the
  /// time; the row's cells measure memory.
  package var showsPeakMemory = false
}

/// The architectures compared: the columns of the results table.
///
/// A column appears once a cell for it is registered in ``Cell/all``; the order here is the
/// column order.
package enum Architecture: String, CaseIterable, Sendable, Codable {
  /// The same work written by hand: plain loops and closure calls, no library.
  case handWritten = "hand-written"
  /// A minimal store written without the library (``PlainStore``): a state, a reducer and an
  /// array of subscriber closures, single-threaded, no locks.
  case plain = "plain"
  /// CascadeStreams: observables, operators and subjects.
  case streams = "Streams"
  /// CascadeStore: `Store`.
  case store = "Store"
  /// CascadeReactor: a `Reactor` on the store engine.
  case reactor = "Reactor"
  /// CascadeFeedback: a `FeedbackLoop`.
  case feedback = "Feedback"

  /// Whether this column is a reference written without the library, which the library columns
  /// of the same row are compared with.
  package var isReference: Bool { self == .handWritten || self == .plain }
}

/// What a run produced, compared across runs and across the architectures of one workload so
/// that a faster cell is never a cell that did less work.
package struct Checksum: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How many values reached the subscriber.
  package var count = 0
  /// The wrapping sum of those values.
  package var sum = 0
  /// The last value received.
  package var last = 0

  package var description: String { "count \(count), sum \(sum), last \(last)" }
}

/// What one run produced: the checksum of what reached the subscribers, and counters a
/// workload reports beside it (W3 counts how often the state's array buffer moved).
package struct Outcome: Sendable {
  package var checksum: Checksum
  /// Named counts, reported under the table; not compared across columns.
  package var counters: [String: Int] = [:]
}

/// A run that did not do what it should (a wrong final state, a lost action); the run stops
/// with this message.
package struct CheckFailure: Error, CustomStringConvertible {
  package let description: String
}

/// Throws ``CheckFailure`` with `message` unless `condition` holds.
func check(
  _ condition: Bool,
  _ message: @autoclosure () -> String
) throws(CheckFailure) {
  if !condition { throw CheckFailure(description: message()) }
}

/// One cell of the table: a workload run by one architecture.
package struct Cell: Sendable {
  package let workload: Workload
  package let architecture: Architecture
  /// Which way of writing the cell this is, or `nil` for a cell written one way.
  ///
  /// W1's Reactor cell is measured written several ways: a `final class` conforming to
  /// `Reactor`, a `BaseReactor` subclass, and so on. The table shows the fastest variant and
  /// notes the others under it.
  package let variant: String?
  /// The result a correct run must produce for a given N, if it is known independently.
  package let expected: (@Sendable (Int) -> Checksum)?
  /// Whether the run measures what it does to the resident memory (see ``MemoryProbe``).
  package let measuresMemory: Bool
  /// The goal a full run holds this cell to; quick runs print no verdicts.
  package let goal: Goal?
  /// Lines printed under the table about this cell (callback counts, memory).
  package let notes: (@Sendable (CellMeasurement) -> [String])?
  /// Runs the workload once over N operations and returns what reached the subscribers; throws
  /// if the run ended in a wrong state.
  ///
  /// The run calls ``Operations/begin()`` where its setup ends and ``Operations/end()`` where its
  /// N operations are done, so that a harness can measure the operations alone.
  package let run: @Sendable (Int) throws -> Outcome

  init(
    _ workload: Workload,
    _ architecture: Architecture,
    variant: String? = nil,
    expected: (@Sendable (Int) -> Checksum)? = nil,
    measuresMemory: Bool = false,
    goal: Goal? = nil,
    notes: (@Sendable (CellMeasurement) -> [String])? = nil,
    outcome run: @escaping @Sendable (Int) throws -> Outcome
  ) {
    self.workload = workload
    self.architecture = architecture
    self.variant = variant
    self.expected = expected
    self.measuresMemory = measuresMemory
    self.goal = goal
    self.notes = notes
    self.run = run
  }

  init(
    _ workload: Workload,
    _ architecture: Architecture,
    variant: String? = nil,
    expected: (@Sendable (Int) -> Checksum)? = nil,
    goal: Goal? = nil,
    notes: (@Sendable (CellMeasurement) -> [String])? = nil,
    run: @escaping @Sendable (Int) throws -> Checksum
  ) {
    self.init(
      workload,
      architecture,
      variant: variant,
      expected: expected,
      goal: goal,
      notes: notes,
      outcome: { n in Outcome(checksum: try run(n)) }
    )
  }
}

extension Cell {
  /// The cell's name: `W1 Reactor`, and its variant if it has one.
  ///
  /// The benchmarks, the reporter, `cascade-cell --cell` and the callgrind baseline all name
  /// the cell this way.
  package var label: String {
    let cell = "\(workload.id) \(architecture.rawValue)"
    guard let variant else { return cell }
    return "\(cell) (\(variant))"
  }

  /// The first cell of this cell's row, when that is another cell: every cell of a row must
  /// produce the same result.
  package var rowReference: Cell? {
    guard let first = Self.all.first(where: { $0.workload == workload }) else { return nil }
    return first.label == label ? nil : first
  }

  /// Every cell, in row order.
  ///
  /// W0 comes first: every ratio is taken against it.
  package static let all: [Cell] =
    W0.cells + W1.cells + W2.cells + W3.cells + W4.cells + W5.cells + W6.cells
    + W6.catalogueCells + W7.cells
}

/// Returns `value` through a call the optimizer cannot see into.
///
/// The workloads pass their closures through here so that neither the library's operators nor
/// the hand-written loops can have them specialized and inlined at compile time: both call the
/// same closure values indirectly, as they would closures that arrive at run time.
@inline(never)
@_optimize(none)
func opaque<T>(_ value: T) -> T {
  value
}

/// Collects what the subscribers of a run receive.
final class Tally: @unchecked Sendable {
  // Safety: a run's subscribers are called one at a time: synchronously on the thread that runs
  // the cell, or (W4) by the store's processing, which runs one input at a time and hands
  // over through its lock; `checksum` is read after the run, ordered after the last call by the
  // same lock or the continuation that ends the run.
  private(set) var checksum = Checksum()

  @inline(__always)
  func record(_ value: Int) {
    checksum.count &+= 1
    checksum.sum &+= value
    checksum.last = value
  }
}

extension Workload {
  /// W0, the bare loop every ratio is taken against.
  package static var baseline: Workload { W0.workload }
}

extension Outcome {
  /// The names of every counter a cell's outcome may report, so that a harness can declare them
  /// before it runs the cell.
  package static let counterNames = [W3.reallocations] + W7.Counter.all
}
