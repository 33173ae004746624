import AppSupport
import Foundation

extension ComparisonReport {
  /// The report as a Markdown table, one row per app and architecture, with a line on how it
  /// was measured and the scenarios replayed.
  public var markdown: String {
    var lines = [
      "| App | Architecture | Same states | Lines of code | Replays/s | ms/replay | CPU ms/replay "
        + "| Peak RSS Δ |",
      "|---|---|---|--:|--:|--:|--:|--:|",
    ]
    for app in apps {
      for result in app.architectures {
        let same =
          result.identicalStates
          ? "yes (\(result.states) states)" : "**no**: \(result.difference ?? "differs")"
        let perReplay = result.replaysPerSecond > 0 ? 1000 / result.replaysPerSecond : 0
        let cells = [
          app.name, result.architecture.rawValue, same, "\(result.linesOfCode)",
          Self.format(result.replaysPerSecond, digits: 1), Self.format(perReplay, digits: 2),
          Self.format(result.processorSecondsPerReplay * 1000, digits: 2),
          result.peakMemoryBytes.map(Self.memory) ?? "n/a",
        ]
        lines.append("| " + cells.joined(separator: " | ") + " |")
      }
    }
    lines.append("")
    lines.append(
      "\(iterations) replays per app and architecture, \(configuration) build, "
        + "\(processors) processors. A replay runs every scenario of the app once, each on a "
        + "fresh service. Lines of code: non-blank, non-comment lines of each architecture's "
        + "implementation file. ms/replay is wall-clock time, CPU ms/replay the processor "
        + "time of the whole process (user and system, all threads) per replay. "
        + "Memory: \(memoryMethod)."
    )
    lines.append("")
    for app in apps {
      lines.append("- \(app.name): " + app.scenarios.map { "“\($0)”" }.joined(separator: ", "))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func format(_ value: Double, digits: Int) -> String {
    String(format: "%.\(digits)f", value)
  }

  static func memory(_ bytes: Int) -> String {
    bytes < 1_048_576
      ? "\(bytes / 1024) KiB" : String(format: "%.1f MiB", Double(bytes) / 1_048_576)
  }
}
