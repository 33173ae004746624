import Foundation

/// Peak memory of this process, from Linux's `/proc/self/status`.
///
/// The peak resident set size (`VmHWM`) is reset before a measurement by writing `5` to
/// `/proc/self/clear_refs`; the measurement is the peak after it minus the resident size
/// (`VmRSS`) before it. Elsewhere, or when the peak cannot be reset, there is no measurement.
public enum MemoryProbe {
  /// How peak memory is measured, for the report.
  public static let method =
    "peak RSS delta: VmHWM after the replays minus VmRSS before them, from /proc/self/status, "
    + "the peak reset through /proc/self/clear_refs before each measurement"

  /// A measurement started by ``start()``.
  public struct Start: Sendable {
    /// The resident size when it started, in bytes.
    public var residentBytes: Int
  }

  /// Resets the peak and notes the resident size; nil when that is not possible here.
  public static func start() -> Start? {
    #if os(Linux)
    do {
      try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    } catch {
      return nil
    }
    guard let status = status(), let resident = bytes("VmRSS", in: status) else { return nil }
    return Start(residentBytes: resident)
    #else
    return nil
    #endif
  }

  /// The peak resident size since `start` above the resident size at `start`, in bytes.
  public static func peakDelta(since start: Start?) -> Int? {
    guard let start, let status = status(), let peak = bytes("VmHWM", in: status) else {
      return nil
    }
    return max(0, peak - start.residentBytes)
  }

  /// The text of `/proc/self/status`, if there is one.
  static func status() -> String? {
    try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
  }

  /// The value of `field` (given in kB) in a `/proc/<pid>/status` text, in bytes.
  public static func bytes(_ field: String, in status: String) -> Int? {
    for line in status.split(separator: "\n") where line.hasPrefix("\(field):") {
      let words = line.dropFirst(field.count + 1).split { $0 == " " || $0 == "\t" }
      guard let value = words.first.flatMap({ Int($0) }) else { return nil }
      return value * 1024
    }
    return nil
  }
}
