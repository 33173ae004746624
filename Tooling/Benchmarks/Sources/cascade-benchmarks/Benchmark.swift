/// A workload: one row of the results table (see shared BENCHMARKS.md for the definitions).
struct Workload: Sendable, Hashable {
  /// The id from BENCHMARKS.md, such as `W6`; variants add a letter (`W6b`).
  let id: String
  /// A short description for the table.
  let name: String
  /// The number of operations one run performs.
  let n: Int
  /// The number of operations in `--quick` mode: small, for a smoke run that checks results.
  let quickN: Int
  /// Whether the table's cells show the peak resident memory of the operations (W7), beside the
  /// time; the row's benchmarks measure memory.
  var showsPeakMemory = false
}

/// The architectures compared: the columns of the results table.
///
/// A column appears once a benchmark for it is registered in ``Benchmark/all``, so Reactor and
/// Feedback columns show up as their workloads are written; the order here is the column order.
enum Architecture: String, CaseIterable, Sendable, Codable {
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
  /// CascadeFeedback (not written yet).
  case feedback = "Feedback"

  /// Whether this column is a reference written without the library, which the library columns
  /// of the same row are compared with.
  var isReference: Bool { self == .handWritten || self == .plain }
}

/// What a run produced, compared across runs and across the architectures of one workload so
/// that a faster cell is never a cell that did less work.
struct Checksum: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How many values reached the subscriber.
  var count = 0
  /// The wrapping sum of those values.
  var sum = 0
  /// The last value received.
  var last = 0

  var description: String { "count \(count), sum \(sum), last \(last)" }
}

/// What one run produced: the checksum of what reached the subscribers, and counters a
/// workload reports beside it (W3 counts how often the state's array buffer moved).
struct Outcome: Sendable {
  var checksum: Checksum
  /// Named counts, reported under the table and in the JSON; not compared across columns.
  var counters: [String: Int] = [:]
}

/// A run that did not do what it should (a wrong final state, a lost action); the harness stops
/// with this message.
struct CheckFailure: Error, CustomStringConvertible {
  let description: String
}

/// Throws ``CheckFailure`` with `message` unless `condition` holds.
func check(
  _ condition: Bool,
  _ message: @autoclosure () -> String
) throws(CheckFailure) {
  if !condition { throw CheckFailure(description: message()) }
}

/// One cell of the table: a workload run by one architecture.
struct Benchmark: Sendable {
  let workload: Workload
  let architecture: Architecture
  /// Which way of writing the cell this is, or `nil` for a cell written one way.
  ///
  /// W1's Reactor cell is measured written two ways: a `final class` conforming to `Reactor`,
  /// and a `BaseReactor` subclass. The table shows the fastest variant and notes the others
  /// under it.
  let variant: String?
  /// The result a correct run must produce for a given N, if it is known independently.
  let expected: (@Sendable (Int) -> Checksum)?
  /// Whether the harness measures the peak resident memory of one extra run (see
  /// ``MemoryProbe``).
  let measuresMemory: Bool
  /// The goal a full run holds this cell to; quick runs print no verdicts.
  let goal: Goal?
  /// Lines printed under the table about this cell (callback counts, memory).
  let notes: (@Sendable (Measurement) -> [String])?
  /// Runs the workload once over N operations and returns what reached the subscribers; throws
  /// if the run ended in a wrong state.
  let run: @Sendable (Int) throws -> Outcome

  init(
    _ workload: Workload,
    _ architecture: Architecture,
    variant: String? = nil,
    expected: (@Sendable (Int) -> Checksum)? = nil,
    measuresMemory: Bool = false,
    goal: Goal? = nil,
    notes: (@Sendable (Measurement) -> [String])? = nil,
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
    notes: (@Sendable (Measurement) -> [String])? = nil,
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

extension Benchmark {
  /// The cell's name in messages: `W1 Reactor`, and its variant if it has one.
  var label: String {
    let cell = "\(workload.id) \(architecture.rawValue)"
    guard let variant else { return cell }
    return "\(cell) (\(variant))"
  }

  /// Every benchmark, in row order.
  ///
  /// W0 comes first: every ratio is taken against it.
  static let all: [Benchmark] =
    W0.benchmarks + W1.benchmarks + W2.benchmarks + W3.benchmarks + W4.benchmarks
    + W5.benchmarks + W6.benchmarks + W7.benchmarks
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
  // the benchmark, or (W4) by the store's processing, which runs one input at a time and hands
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
