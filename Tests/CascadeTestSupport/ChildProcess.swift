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
  switch input {
  case .bytes(let data): try data.write(to: inputFile)
  case .text(let text): try Data(text.utf8).write(to: inputFile)
  case .closed: try Data().write(to: inputFile)
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
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let stdin = try FileHandle(forReadingFrom: inputFile)
  let stdout = try FileHandle(forWritingTo: outputFile)
  let stderr = try FileHandle(forWritingTo: errorFile)
  defer {
    try? stdin.close()
    try? stdout.close()
    try? stderr.close()
  }
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  // The wait is a continuation the process's termination resumes: no thread of the cooperative
  // pool blocks or polls while the child runs, so these tests run in parallel with the rest.
  let exited = Signal()
  process.terminationHandler = { _ in exited.fire() }
  try process.run()
  var timedOut = false
  if !(await exited.wait(timeout: timeout)) {
    kill(process.processIdentifier, SIGKILL)
    timedOut = true
    _ = await exited.wait(timeout: .seconds(30))
  }
  process.waitUntilExit()
  return ChildRun(
    status: process.terminationStatus,
    signalled: process.terminationReason == .uncaughtSignal,
    timedOut: timedOut,
    output: try Data(contentsOf: outputFile),
    errors: try Data(contentsOf: errorFile)
  )
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
