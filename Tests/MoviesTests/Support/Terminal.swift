import CascadeTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `executable` with a pseudo-terminal as its standard input and output, as a person at a
/// terminal runs it: `keys` are typed at once (without echo), standard error goes to a file.
///
/// The terminal passes bytes through unchanged (no `\r` added before `\n`). The run ends when
/// the program exits; it is killed after `timeout`, a safety net against a hang.
func runChildInTerminal(
  _ executable: URL,
  _ arguments: [String],
  keys: String,
  timeout: Duration = .seconds(60)
) async throws -> TerminalRun {
  let (master, name) = try openTerminal()
  defer { close(master) }
  let slave = open(name, O_RDWR | O_NOCTTY)
  guard slave >= 0 else { throw TerminalError(description: "cannot open the terminal") }
  var settings = termios()
  tcgetattr(slave, &settings)
  settings.c_lflag &= ~tcflag_t(ECHO)
  settings.c_oflag &= ~tcflag_t(OPOST)
  tcsetattr(slave, TCSANOW, &settings)

  let errorFile = FileManager.default.temporaryDirectory
    .appendingPathComponent("terminal-\(UUID().uuidString).err")
  _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errorFile) }
  let stderr = try FileHandle(forWritingTo: errorFile)
  defer { try? stderr.close() }

  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
  process.standardInput = terminal
  process.standardOutput = terminal
  process.standardError = stderr
  let exited = Signal()
  process.terminationHandler = { _ in exited.fire() }
  try process.run()
  // Only the child holds the terminal now: once it exits, reading the master ends.
  close(slave)
  _ = Array(keys.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  // A thread of its own reads: a blocking read on the cooperative pool could starve the servers
  // the program talks to, which run on it too.
  let screen = LockedBox(Data())
  let read = Signal()
  Thread {
    screen.value = readAll(master)
    read.fire()
  }.start()
  var timedOut = false
  if !(await exited.wait(timeout: timeout)) {
    kill(process.processIdentifier, SIGKILL)
    timedOut = true
    _ = await exited.wait(timeout: .seconds(30))
  }
  process.waitUntilExit()
  _ = await read.wait(timeout: .seconds(30))
  let output = screen.value
  return TerminalRun(
    status: process.terminationStatus,
    signalled: process.terminationReason == .uncaughtSignal,
    timedOut: timedOut,
    output: output,
    errors: try Data(contentsOf: errorFile)
  )
}

/// Runs `executable` with its standard output on a pipe nobody reads (the reading end closed
/// before it starts, as after `| head -0`), and its standard error to a file.
func runChildWithClosedOutput(
  _ executable: URL,
  _ arguments: [String]
) async throws -> TerminalRun {
  var ends: [Int32] = [0, 0]
  guard pipe(&ends) == 0 else { throw TerminalError(description: "no pipe: errno \(errno)") }
  close(ends[0])
  let errorFile = FileManager.default.temporaryDirectory
    .appendingPathComponent("closed-\(UUID().uuidString).err")
  _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errorFile) }
  let stderr = try FileHandle(forWritingTo: errorFile)
  defer { try? stderr.close() }
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
  process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
  process.standardError = stderr
  let exited = Signal()
  process.terminationHandler = { _ in exited.fire() }
  try process.run()
  close(ends[1])
  var timedOut = false
  if !(await exited.wait(timeout: .seconds(60))) {
    kill(process.processIdentifier, SIGKILL)
    timedOut = true
    _ = await exited.wait(timeout: .seconds(30))
  }
  process.waitUntilExit()
  return TerminalRun(
    status: process.terminationStatus,
    signalled: process.terminationReason == .uncaughtSignal,
    timedOut: timedOut,
    output: Data(),
    errors: try Data(contentsOf: errorFile)
  )
}

/// How a child process run by these helpers ended, and what it wrote.
struct TerminalRun: Sendable {
  var status: Int32
  var signalled: Bool
  var timedOut: Bool
  var output: Data
  var errors: Data

  var outputText: String { String(decoding: output, as: UTF8.self) }
  var errorText: String { String(decoding: errors, as: UTF8.self) }
  var succeeded: Bool { !signalled && !timedOut && status == 0 }
  var summary: String {
    "\(signalled ? "signal" : "status") \(status)\(timedOut ? " (timed out)" : ""); stderr: "
      + errorText.prefix(500)
  }
}

/// A new pseudo-terminal: its controlling end, open, and the path of its terminal end.
private func openTerminal() throws -> (master: Int32, path: String) {
  let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
  guard master >= 0 else { throw TerminalError(description: "no /dev/ptmx: errno \(errno)") }
  #if os(Linux)
  // TIOCSPTLCK (unlock the terminal end) and TIOCGPTN (its number), from <asm/ioctls.h>.
  var unlock: Int32 = 0
  var number: UInt32 = 0
  guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
    close(master)
    throw TerminalError(description: "cannot unlock the pseudo-terminal: errno \(errno)")
  }
  return (master, "/dev/pts/\(number)")
  #else
  guard grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
    close(master)
    throw TerminalError(description: "cannot unlock the pseudo-terminal: errno \(errno)")
  }
  return (master, String(decoding: Data(bytes: name, count: strlen(name)), as: UTF8.self))
  #endif
}

/// Everything the terminal's other end shows, until the program has exited and closed it.
private func readAll(_ master: Int32) -> Data {
  var output = Data()
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
    if count > 0 {
      output.append(contentsOf: buffer[..<count])
    } else if count < 0 && errno == EINTR {
      continue
    } else {
      return output  // EIO: the program has exited
    }
  }
}

/// A pseudo-terminal or pipe that could not be made.
struct TerminalError: Error, CustomStringConvertible {
  var description: String
}
