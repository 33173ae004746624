/// A workload: one row of the results table (see shared BENCHMARKS.md for the definitions).
struct Workload: Sendable, Hashable {
  /// The id from BENCHMARKS.md, such as `W6`; variants add a letter (`W6b`).
  let id: String
  /// A short description for the table.
  let name: String
  /// The number of operations one run performs.
  let n: Int
}

/// The architectures compared: the columns of the results table.
///
/// A column appears once a benchmark for it is registered in ``Benchmark/all``, so Store, Reactor
/// and Feedback columns show up as their workloads are written; the order here is the column
/// order.
enum Architecture: String, CaseIterable, Sendable, Codable {
  /// The same work written by hand: plain loops and closure calls, no library.
  case handWritten = "hand-written"
  /// CascadeStreams: observables, operators and subjects.
  case streams = "Streams"
  /// CascadeStore (not written yet).
  case store = "Store"
  /// CascadeReactor (not written yet).
  case reactor = "Reactor"
  /// CascadeFeedback (not written yet).
  case feedback = "Feedback"
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

/// One cell of the table: a workload run by one architecture.
struct Benchmark: Sendable {
  let workload: Workload
  let architecture: Architecture
  /// The result a correct run must produce for a given N, if it is known independently.
  let expected: (@Sendable (Int) -> Checksum)?
  /// Runs the workload once over N operations and returns what reached the subscriber.
  let run: @Sendable (Int) -> Checksum

  init(
    _ workload: Workload,
    _ architecture: Architecture,
    expected: (@Sendable (Int) -> Checksum)? = nil,
    run: @escaping @Sendable (Int) -> Checksum
  ) {
    self.workload = workload
    self.architecture = architecture
    self.expected = expected
    self.run = run
  }
}

extension Benchmark {
  /// Every benchmark, in row order.
  ///
  /// W0 comes first: every ratio is taken against it.
  static let all: [Benchmark] = W0.benchmarks + W6.benchmarks
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

/// Collects what the one subscriber of a run receives.
final class Tally: @unchecked Sendable {
  // Safety: a run has one subscriber, called synchronously on the thread that runs the
  // benchmark; `checksum` is read on that thread after the run.
  private(set) var checksum = Checksum()

  @inline(__always)
  func record(_ value: Int) {
    checksum.count &+= 1
    checksum.sum &+= value
    checksum.last = value
  }
}
