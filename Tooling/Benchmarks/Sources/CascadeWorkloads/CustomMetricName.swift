/// The names of the custom metrics the benchmarks report beside the tool's own, so that the
/// reporter finds them: the N of the run, what reached the subscribers, a cell's counters (under
/// their own names) and, for the cells that measure memory, ``MemoryUsage``'s fields.
package enum CustomMetricName {
  /// The number of operations of one run.
  package static let operations = "operations (N)"
  /// How many values reached the subscribers in one run.
  package static let valuesReceived = "values received"
  /// The prefix of ``MemoryUsage``'s fields.
  package static let memoryPrefix = "memory: "
}
