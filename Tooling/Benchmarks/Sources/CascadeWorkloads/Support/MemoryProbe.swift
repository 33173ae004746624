import Foundation

#if os(Linux)
import Glibc
#endif

/// What one run of a memory-measured workload (W3, W7) did to the process's resident memory.
package struct MemoryUsage: Sendable, Codable {
  /// The workload's own estimate of its state's size, in bytes.
  package let stateBytes: Int
  /// Resident memory added by the setup (building the state, the store and its subscriber).
  package let setupBytes: Int
  /// How far the peak resident memory rose above the resident memory at the end of the setup,
  /// while the operations ran: 0 for a store that mutates its state in place, about the state's
  /// size (or more) for one that copies it per operation.
  package let growthBytes: Int
  /// The process's peak resident memory during the run (VmHWM).
  package let peakBytes: Int
  /// The process's resident memory at the end of the setup, where the peak is measured from
  /// (VmRSS).
  package let baselineBytes: Int
  /// The process's resident memory when the run had returned (VmRSS): what it kept.
  package let endBytes: Int
  /// The same after the allocator returned its free memory to the system (`malloc_trim`): what
  /// is still in use, rather than held free by the allocator.
  package let trimmedEndBytes: Int
  /// Whether the peak could be reset before the run (`/proc/self/clear_refs`, Linux ≥ 4.0).
  ///
  /// If not, `growthBytes` only shows growth above the process's earlier peak.
  package let peakWasReset: Bool

  /// Whether the operations left memory flat: growth under half the state's size.
  package var isFlat: Bool { growthBytes < stateBytes / 2 }
}

/// Measures the peak resident memory of one run on Linux, from `/proc/self/status` (VmRSS and
/// VmHWM, the high-water mark).
///
/// The benchmarks run every iteration of a memory-measured cell inside ``measure(_:)``: it
/// resets the high-water mark, and the workload calls
/// ``operationsBegin(stateBytes:)`` once its state and store are built, which resets the mark
/// again and records the resident memory there; when the run returns, the mark is the peak of
/// the operations alone. Elsewhere than Linux nothing is measured.
package enum MemoryProbe {
  // Safety (all three): touched only by the harness thread, which runs the cells one at a
  // time; a workload calls `operationsBegin` from that same thread.
  /// Whether a measured run is in progress.
  private nonisolated(unsafe) static var armed = false
  private nonisolated(unsafe) static var start: Int?
  private nonisolated(unsafe) static var begin: (rss: Int, stateBytes: Int, reset: Bool)?

  /// Runs `body` once with the probe armed and returns what it did to memory, or `nil` where
  /// memory cannot be read or the workload never called ``operationsBegin(stateBytes:)``.
  package static func measure<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (T, MemoryUsage?)
  {
    releaseFreeMemory()
    _ = resetPeak()
    start = status()?.rss
    begin = nil
    armed = true
    defer { armed = false }
    let result = try body()
    guard let start, let begin, let after = status() else { return (result, nil) }
    releaseFreeMemory()
    let trimmed = status()?.rss ?? after.rss
    let usage = MemoryUsage(
      stateBytes: begin.stateBytes,
      setupBytes: begin.rss - start,
      growthBytes: max(0, after.hwm - begin.rss),
      peakBytes: after.hwm,
      baselineBytes: begin.rss,
      endBytes: after.rss,
      trimmedEndBytes: trimmed,
      peakWasReset: begin.reset
    )
    return (result, usage)
  }

  /// Marks the end of a workload's setup: the peak is measured from here.
  ///
  /// Does nothing unless
  /// the harness is measuring.
  static func operationsBegin(stateBytes: Int) {
    guard armed else { return }
    releaseFreeMemory()
    let reset = resetPeak()
    guard let now = status() else { return }
    // Without a reset, growth can only be seen above the earlier peak.
    begin = (rss: reset ? now.rss : max(now.rss, now.hwm), stateBytes: stateBytes, reset: reset)
  }

  /// Returns the allocator's free memory to the system (glibc's `malloc_trim`), so that memory
  /// freed by earlier runs does not hide new allocations: a copy of the state then needs fresh
  /// pages, which the peak shows.
  private static func releaseFreeMemory() {
    #if os(Linux)
    // malloc.h is not part of the Glibc module; look the function up (RTLD_DEFAULT is null).
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    typealias MallocTrim = @convention(c) (Int) -> Int32
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    #endif
  }

  /// Resets the high-water mark to the current resident memory; `false` if the kernel refused.
  private static func resetPeak() -> Bool {
    #if os(Linux)
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    do {
      try handle.write(contentsOf: Data("5".utf8))
      return true
    } catch {
      return false
    }
    #else
    return false
    #endif
  }

  /// The resident memory and its high-water mark, in bytes.
  private static func status() -> (rss: Int, hwm: Int)? {
    #if os(Linux)
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    var rss: Int?
    var hwm: Int?
    for line in text.split(separator: "\n") {
      // Lines such as `VmHWM:	    1784 kB`.
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count == 3, fields[2] == "kB", let kilobytes = Int(fields[1]) else { continue }
      switch fields[0] {
      case "VmRSS:": rss = kilobytes * 1024
      case "VmHWM:": hwm = kilobytes * 1024
      default: break
      }
    }
    guard let rss, let hwm else { return nil }
    return (rss, hwm)
    #else
    return nil
    #endif
  }
}
