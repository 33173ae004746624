/// What the benchmarks measured of one cell, as the reporter reads it back from their results:
/// the table, the notes and the goals are made of these.
package struct CellMeasurement: Sendable {
  package let cell: Cell
  package let n: Int
  /// The median wall time of one run's N operations, in seconds.
  package let median: Double
  /// How many values reached the subscribers in one run (the checksum's count).
  package let valuesReceived: Int
  /// The counters the runs reported (``Outcome/counters``).
  package let counters: [String: Int]
  /// What a run did to the resident memory, for the cells that measure it.
  package let memory: MemoryUsage?

  package init(
    cell: Cell,
    n: Int,
    median: Double,
    valuesReceived: Int,
    counters: [String: Int],
    memory: MemoryUsage?
  ) {
    self.cell = cell
    self.n = n
    self.median = median
    self.valuesReceived = valuesReceived
    self.counters = counters
    self.memory = memory
  }

  /// Operations per second at the median time.
  package var operationsPerSecond: Double { Double(n) / median }

  /// Nanoseconds per operation at the median time.
  package var nanosecondsPerOperation: Double { median * 1e9 / Double(n) }
}
