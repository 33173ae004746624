extension MemoryUsage {
  /// The names of ``metrics``.
  package static let metricNames = [
    "state bytes", "setup bytes", "growth bytes", "peak bytes", "baseline bytes", "end bytes",
    "trimmed end bytes", "peak was reset",
  ].map { CustomMetricName.memoryPrefix + $0 }

  /// The fields as custom metrics: non-negative whole numbers, named with
  /// ``CustomMetricName/memoryPrefix``.
  package var metrics: [String: Int] {
    let prefix = CustomMetricName.memoryPrefix
    return [
      prefix + "state bytes": stateBytes,
      prefix + "setup bytes": max(0, setupBytes),
      prefix + "growth bytes": growthBytes,
      prefix + "peak bytes": peakBytes,
      prefix + "baseline bytes": baselineBytes,
      prefix + "end bytes": endBytes,
      prefix + "trimmed end bytes": trimmedEndBytes,
      prefix + "peak was reset": peakWasReset ? 1 : 0,
    ]
  }

  /// Reads the fields back from ``metrics``; `nil` if one is missing.
  package init?(metrics: [String: Int]) {
    func field(_ name: String) -> Int? { metrics[CustomMetricName.memoryPrefix + name] }
    guard
      let stateBytes = field("state bytes"),
      let setupBytes = field("setup bytes"),
      let growthBytes = field("growth bytes"),
      let peakBytes = field("peak bytes"),
      let baselineBytes = field("baseline bytes"),
      let endBytes = field("end bytes"),
      let trimmedEndBytes = field("trimmed end bytes"),
      let peakWasReset = field("peak was reset")
    else { return nil }
    self.init(
      stateBytes: stateBytes,
      setupBytes: setupBytes,
      growthBytes: growthBytes,
      peakBytes: peakBytes,
      baselineBytes: baselineBytes,
      endBytes: endBytes,
      trimmedEndBytes: trimmedEndBytes,
      peakWasReset: peakWasReset != 0
    )
  }
}
