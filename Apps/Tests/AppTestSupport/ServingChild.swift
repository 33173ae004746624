public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process that runs until it is stopped (a server): started, then waited for until it
/// prints its first line on standard output, then stopped with a signal.
///
/// ```swift
/// let child = try ServingChild(executable, ["game.jsonl"])
/// let url = try #require(await child.firstLine())  // what it printed when ready
/// let run = await child.stop()                      // SIGTERM, then how it ended
/// ```
public final class ServingChild: Sendable {
  private let process: Process
  private let exited = Signal()
  private let lineRead = Signal()
  private let line = LockedBox<String?>(nil)
  private let scratch: URL

  /// Where the child announces itself: the stream whose first line ``firstLine(timeout:)``
  /// returns.
  public enum Announcement: Sendable {
    /// Standard output (a server that prints its URL); standard error goes to a file.
    case output
    /// Standard error (an app that prints its endpoint there); standard output goes to a file.
    case error
  }

  /// Starts `executable` with `arguments`; its standard input is `input` (default: empty), the
  /// stream it does not announce on goes to a file (read by ``stop(signal:)``).
  ///
  /// - Parameters:
  ///   - executable: The program.
  ///   - arguments: Its arguments.
  ///   - input: Its standard input (default: empty).
  ///   - announcement: The stream it announces itself on.
  ///   - isAnnouncement: Which line of that stream is the announcement (default: the first);
  ///     the lines before it are skipped, and the stream is read to its end afterwards, so that
  ///     a talkative child never blocks on a full pipe.
  /// - Throws: When the scratch directory cannot be made, or the program cannot be started.
  public init(
    _ executable: URL,
    _ arguments: [String],
    input: FileHandle? = nil,
    announcesOn announcement: Announcement = .output,
    isAnnouncement: @escaping @Sendable (String) -> Bool = { _ in true }
  ) throws {
    scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("child-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let errorFile = scratch.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    let process = Process()
    process.environment = childEnvironment()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = scratch
    let output = Pipe()
    process.standardInput = input ?? FileHandle.nullDevice
    switch announcement {
    case .output:
      process.standardOutput = output
      process.standardError = try FileHandle(forWritingTo: errorFile)
    case .error:
      process.standardError = output
      process.standardOutput = try FileHandle(forWritingTo: errorFile)
    }
    let exited = exited
    process.terminationHandler = { _ in exited.fire() }
    self.process = process
    try process.run()
    try output.fileHandleForWriting.close()
    // A thread of its own reads the first line: a blocking read on the cooperative pool could
    // starve the tests running beside it.
    let reader = output.fileHandleForReading
    let line = line
    let lineRead = lineRead
    Thread {
      var bytes = Data()
      var buffer = [UInt8](repeating: 0, count: 4096)
      var announced = false
      while true {
        let count = buffer.withUnsafeMutableBytes {
          read(reader.fileDescriptor, $0.baseAddress, $0.count)
        }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        if announced { continue }
        for byte in buffer[..<count] where !announced {
          guard byte == 0x0A else {
            bytes.append(byte)
            continue
          }
          let text = String(decoding: bytes, as: UTF8.self)
          bytes.removeAll()
          if isAnnouncement(text) {
            line.value = text
            announced = true
            lineRead.fire()
          }
        }
      }
      lineRead.fire()
    }.start()
  }

  /// The first line the child printed, without its newline; `nil` if it exited (or closed its
  /// output) first, or printed nothing within `timeout` (a safety net).
  public func firstLine(timeout: Duration = .seconds(120)) async -> String? {
    guard await lineRead.wait(timeout: timeout) else { return nil }
    return line.value
  }

  /// Sends `signal` (SIGTERM by default; `nil`: none, the child is ending by itself) and waits
  /// for the child to end; kills it if it has not ended within 60 seconds.
  ///
  /// - Returns: How it ended, and what it wrote on the stream it does not announce on, as
  ///   `errors` (the announcing stream after the first line is not kept).
  @discardableResult
  public func stop(signal: Int32? = SIGTERM) async -> ChildRun {
    defer { try? FileManager.default.removeItem(at: scratch) }
    if let signal, process.isRunning { kill(process.processIdentifier, signal) }
    var timedOut = false
    if !(await exited.wait(timeout: .seconds(60))) {
      kill(process.processIdentifier, SIGKILL)
      timedOut = true
      _ = await exited.wait(timeout: .seconds(30))
    }
    process.waitUntilExit()
    let errors = (try? Data(contentsOf: scratch.appendingPathComponent("err"))) ?? Data()
    return ChildRun(
      status: process.terminationStatus,
      signalled: process.terminationReason == .uncaughtSignal,
      timedOut: timedOut,
      output: Data((line.value ?? "").utf8),
      errors: errors
    )
  }
}
