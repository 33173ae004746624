/// Marks where a cell's N operations begin and end, so that a harness measures them alone.
///
/// Every cell's run builds its state, store and subscribers, calls ``begin()``, performs its N
/// operations (and, for the asynchronous ones, waits until the last result is reduced), calls
/// ``end()``, then checks the final state and tears down. The benchmarks
/// (`Benchmarks/CascadeBenchmarks`) start and stop the measurement of wall clock, allocations
/// and instructions there; `cascade-cell` installs nothing, and the marks cost a call each.
package enum Operations {
  // Safety (both): set by the harness thread before it runs a cell, and not changed while the
  // cell runs; a cell's asynchronous part (W4) reads them from the task that the harness thread
  // started and waits for, so the write happens before the read.
  /// Called where the operations begin.
  package nonisolated(unsafe) static var onBegin: (() -> Void)?
  /// Called where the operations end.
  package nonisolated(unsafe) static var onEnd: (() -> Void)?

  /// Marks the end of the setup: the operations begin.
  @inline(never)
  static func begin() {
    onBegin?()
  }

  /// Marks the end of the operations: what follows is checking and teardown.
  @inline(never)
  static func end() {
    onEnd?()
  }
}
