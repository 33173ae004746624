public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process ended, and what it wrote.
public struct ChildRun: Sendable {
  /// The exit status, or the signal's number when ``signalled``.
  public var status: Int32
  /// Whether a signal ended the process (a crash, or the kill after ``timedOut``).
  public var signalled: Bool
  /// Whether the process outlived its timeout and was killed.
  public var timedOut: Bool
  /// The bytes written to standard output.
  public var output: Data
  /// The bytes written to standard error.
  public var errors: Data

  /// Standard output, decoded (invalid UTF-8 repaired).
  public var outputText: String { String(decoding: output, as: UTF8.self) }
  /// Standard error, decoded (invalid UTF-8 repaired).
  public var errorText: String { String(decoding: errors, as: UTF8.self) }

  /// Whether the process ended by itself (no signal, no timeout) with status 0.
  public var succeeded: Bool { !signalled && !timedOut && status == 0 }

  /// Whether the process refused cleanly: it ended by itself (no signal, no timeout) with a
  /// non-zero status and said something on standard error.
  public var refusedCleanly: Bool {
    !signalled && !timedOut && status != 0
      && !errorText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
  }

  /// A one-line account for failure messages.
  public var summary: String {
    let end = signalled ? "signal \(status)" : "status \(status)"
    return "\(end)\(timedOut ? " (timed out)" : ""); stderr: \(errorText.prefix(500))"
  }
}

/// Where a child process's standard input comes from.
public enum ChildInput: Sendable {
  /// These bytes, then end of file.
  case bytes(Data)
  /// The text's UTF-8 bytes, then end of file.
  case text(String)
  /// No standard input at all: file descriptor 0 is closed (`<&-`).
  case closed
  /// A pseudo-terminal, as a person at a terminal runs the program, with `keys` typed into it at
  /// once.
  ///
  /// The terminal is in canonical mode without echo and passes output bytes through unchanged
  /// (no `\r` added before `\n`): each line is read as typed, and the end-of-file character
  /// (`\u{4}`, Ctrl-D) at the start of a line makes the next read return the end of input.
  case terminal(typing: String)
}

/// Where a child process's standard output goes.
public enum ChildOutput: Sendable {
  /// A file, read back into ``ChildRun/output``.
  case file
  /// A pipe whose reading end is closed before the program starts — `… | head -0` where `head`
  /// has already gone, every time — so its first write fails with `EPIPE` (or kills it with
  /// `SIGPIPE` if it does not ignore the signal). ``ChildRun/output`` is empty.
  case closedPipe
  /// The terminal of ``ChildInput/terminal(typing:)``: ``ChildRun/output`` is everything the
  /// terminal showed.
  case terminal
}

/// Runs `executable` with `arguments` and waits for it without blocking a thread; killed
/// (SIGKILL) after `timeout`, a safety net against a hang.
///
/// Standard output and error go to files, so a child that writes much never blocks on a full
/// pipe. With `shell`, the child is started by `/bin/sh -c shell sh executable arguments…`: the
/// script gets the executable as `$1` and its arguments after it, must `exec` it, and may add
/// arguments that Swift strings cannot hold (bytes that are not UTF-8, made with `printf`):
/// `p="$1"; shift; exec "$p" new --name "$(printf 'A\377')" "$@"`.
///
/// - Parameters:
///   - executable: The program.
///   - arguments: Its arguments.
///   - input: Its standard input.
///   - output: Where its standard output goes (standard error always goes to a file).
///   - directory: Its working directory (default: a fresh temporary one, removed afterwards).
///   - environment: Variables added to this process's environment.
///   - shell: A `/bin/sh` script that `exec`s `"$@"`, or `nil` to start the program directly.
///   - timeout: How long it may run.
/// - Returns: How it ended and what it wrote.
/// - Throws: When the files for its input and output cannot be made, or it cannot be started.
public func runChild(
  _ executable: URL,
  _ arguments: [String],
  input: ChildInput = .text(""),
  output: ChildOutput = .file,
  in directory: URL? = nil,
  environment: [String: String] = [:],
  shell: String? = nil,
  timeout: Duration = .seconds(60)
) async throws -> ChildRun {
  let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("child-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: scratch) }
  let inputFile = scratch.appendingPathComponent("in")
  let outputFile = scratch.appendingPathComponent("out")
  let errorFile = scratch.appendingPathComponent("err")
  var terminal: PseudoTerminal?
  switch input {
  case .bytes(let data): try data.write(to: inputFile)
  case .text(let text): try Data(text.utf8).write(to: inputFile)
  case .closed: try Data().write(to: inputFile)
  case .terminal:
    try Data().write(to: inputFile)
    terminal = try PseudoTerminal()
  }
  if case .terminal = output, terminal == nil {
    throw ChildProcessError(description: "terminal output needs terminal input")
  }
  for file in [outputFile, errorFile] {
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
  }
  var script = shell
  if case .closed = input {
    script = script.map { "exec <&-; " + $0 } ?? #"exec "$@" <&-"#
  }
  let process = Process()
  if let script {
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, "sh", executable.path] + arguments
  } else {
    process.executableURL = executable
    process.arguments = arguments
  }
  process.currentDirectoryURL = directory ?? scratch
  process.environment = childEnvironment(adding: environment)
  let stdin = try FileHandle(forReadingFrom: inputFile)
  let stdout = try FileHandle(forWritingTo: outputFile)
  let stderr = try FileHandle(forWritingTo: errorFile)
  defer {
    try? stdin.close()
    try? stdout.close()
    try? stderr.close()
  }
  process.standardInput = terminal?.device ?? stdin
  var closedPipe: FileHandle?
  switch output {
  case .file:
    process.standardOutput = stdout
  case .closedPipe:
    // Foundation's `Process` closes every other descriptor in the children it starts, so no
    // other test's child keeps the reading end open.
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    closedPipe = pipe.fileHandleForWriting
    process.standardOutput = pipe.fileHandleForWriting
  case .terminal:
    process.standardOutput = terminal?.device
  }
  process.standardError = stderr
  // The wait is a continuation the process's termination resumes: no thread of the cooperative
  // pool blocks or polls while the child runs, so these tests run in parallel with the rest.
  let exited = Signal()
  process.terminationHandler = { _ in exited.fire() }
  try process.run()
  // Only the child holds these now: once it exits, reading the terminal ends.
  try closedPipe?.close()
  let screen = try terminal.map { terminal in
    try terminal.device.close()
    if case .terminal(let keys) = input { terminal.type(keys) }
    return terminal.readUntilClosed()
  }
  var timedOut = false
  if !(await exited.wait(timeout: timeout)) {
    kill(process.processIdentifier, SIGKILL)
    timedOut = true
    _ = await exited.wait(timeout: .seconds(30))
  }
  process.waitUntilExit()
  let shown = await screen?.wait()
  let written: Data
  switch output {
  case .file: written = try Data(contentsOf: outputFile)
  case .closedPipe: written = Data()
  case .terminal: written = shown ?? Data()
  }
  return ChildRun(
    status: process.terminationStatus,
    signalled: process.terminationReason == .uncaughtSignal,
    timedOut: timedOut,
    output: written,
    errors: try Data(contentsOf: errorFile)
  )
}

/// A pipe, file or terminal a child process could not be given.
public struct ChildProcessError: Error, CustomStringConvertible {
  /// What failed.
  public var description: String
}

/// A new pseudo-terminal: its controlling end, and its terminal end for a child.
private final class PseudoTerminal: Sendable {
  /// The controlling end: what is typed is written here, what the terminal shows is read here.
  let controller: Int32
  /// The terminal end, for the child's standard input (and output); the parent closes it once
  /// the child has started.
  let device: FileHandle

  init() throws {
    let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    guard controller >= 0 else {
      throw ChildProcessError(description: "no /dev/ptmx: errno \(errno)")
    }
    #if os(Linux)
    // TIOCSPTLCK (unlock the terminal end) and TIOCGPTN (its number), from <asm/ioctls.h>; Glibc's
    // module does not declare grantpt, unlockpt or ptsname.
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(controller, 0x4004_5431, &unlock) == 0, ioctl(controller, 0x8004_5430, &number) == 0
    else {
      close(controller)
      throw ChildProcessError(description: "cannot unlock the pseudo-terminal: errno \(errno)")
    }
    let path = "/dev/pts/\(number)"
    #else
    guard grantpt(controller) == 0, unlockpt(controller) == 0, let name = ptsname(controller) else {
      close(controller)
      throw ChildProcessError(description: "cannot unlock the pseudo-terminal: errno \(errno)")
    }
    let path = String(cString: name)
    #endif
    let device = open(path, O_RDWR | O_NOCTTY)
    guard device >= 0 else {
      close(controller)
      throw ChildProcessError(description: "cannot open \(path): errno \(errno)")
    }
    var settings = termios()
    tcgetattr(device, &settings)
    settings.c_lflag &= ~tcflag_t(ECHO)
    settings.c_oflag &= ~tcflag_t(OPOST)
    tcsetattr(device, TCSANOW, &settings)
    self.controller = controller
    self.device = FileHandle(fileDescriptor: device, closeOnDealloc: true)
  }

  deinit { close(controller) }

  /// Types `keys`: they wait in the terminal's input queue until the program reads them.
  func type(_ keys: String) {
    _ = Array(keys.utf8).withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
  }

  /// Starts reading everything the terminal shows, on a thread of its own (a blocking read on
  /// the cooperative pool could starve what the program talks to, such as a server in the test
  /// process), until the program has exited and the terminal is closed (EIO).
  func readUntilClosed() -> TerminalScreen {
    let screen = TerminalScreen()
    Thread { [self] in
      var shown = Data()
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
        if count > 0 {
          shown.append(contentsOf: buffer[..<count])
        } else if count < 0 && errno == EINTR {
          continue
        } else {
          break  // EIO: the program has exited
        }
      }
      screen.finish(shown)
    }.start()
    return screen
  }
}

/// What a terminal showed, once its program has exited.
private final class TerminalScreen: Sendable {
  private let shown = LockedBox(Data())
  private let ended = Signal()

  func finish(_ data: Data) {
    shown.value = data
    ended.fire()
  }

  /// What the terminal showed; empty if it did not close within 30 seconds.
  func wait() async -> Data {
    guard await ended.wait(timeout: .seconds(30)) else { return Data() }
    return shown.value
  }
}

/// The built product named `name` (an executable), found next to the test bundle.
public func builtProduct(named name: String) -> URL? {
  var starts = [Bundle.main.bundleURL]
  if let first = CommandLine.arguments.first {
    starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath())
  }
  for start in starts {
    var directory = start
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
  }
  return nil
}

/// The environment of a child process: this one's with `added`, without the purity check's.
///
/// The tests check their own reducers (`CASCADE_PURITY_CHECK=1`, `Tooling/test.sh`); in a
/// child, which reports to no test, the check would only double its work and could write to the
/// standard error the test reads.
public func childEnvironment(adding added: [String: String] = [:]) -> [String: String] {
  var environment = ProcessInfo.processInfo.environment.merging(added) { $1 }
  environment["CASCADE_PURITY_CHECK"] = nil
  return environment
}
