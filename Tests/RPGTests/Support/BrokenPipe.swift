import CascadeTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a program writing to a pipe nobody reads ended.
struct BrokenPipeRun {
  /// The exit status, or the signal's number when ``signalled``.
  var status: Int32
  /// Whether a signal ended it (`SIGPIPE`, or the kill after the timeout).
  var signalled: Bool
  /// What it wrote to standard error.
  var errors: Data
}

/// Runs `executable` with its standard output on a pipe that nobody reads.
///
/// The pipe's reading end is closed before the program starts — `rpg show | head -0` where
/// `head` has already gone, every time — so its first write fails with `EPIPE` (or kills it
/// with `SIGPIPE` if it does not ignore the signal). Waits for it without polling; killed after
/// 60 seconds.
func runWithBrokenPipe(
  _ executable: URL,
  _ arguments: [String],
  input: String = ""
) async throws -> BrokenPipeRun {
  let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("broken-pipe-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: scratch) }
  let inputFile = scratch.appendingPathComponent("in")
  let errorFile = scratch.appendingPathComponent("err")
  try Data(input.utf8).write(to: inputFile)
  _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)

  var ends: [Int32] = [-1, -1]
  // Foundation's `Process` closes every other descriptor in the children it starts, so no
  // other test's child keeps the reading end open; close-on-exec covers the rest.
  guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
  _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
  _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
  close(ends[0])
  let output = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
  let stdin = try FileHandle(forReadingFrom: inputFile)
  let stderr = try FileHandle(forWritingTo: errorFile)
  defer {
    try? output.close()
    try? stdin.close()
    try? stderr.close()
  }
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = scratch
  process.standardInput = stdin
  process.standardOutput = output
  process.standardError = stderr
  let exited = Signal()
  process.terminationHandler = { _ in exited.fire() }
  try process.run()
  if !(await exited.wait(timeout: .seconds(60))) {
    kill(process.processIdentifier, SIGKILL)
    _ = await exited.wait(timeout: .seconds(30))
  }
  process.waitUntilExit()
  return BrokenPipeRun(
    status: process.terminationStatus,
    signalled: process.terminationReason == .uncaughtSignal,
    errors: try Data(contentsOf: errorFile)
  )
}
