import CascadeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a `todo` run at a terminal ended, and what it wrote to its standard output and error.
struct TerminalRun: Sendable {
  var status: Int32
  var signalled: Bool
  var timedOut: Bool
  var output: Data
  var errors: Data

  var outputText: String { String(decoding: output, as: UTF8.self) }
  var succeeded: Bool { !signalled && !timedOut && status == 0 }
  var summary: String {
    "status \(status)\(signalled ? " (signal)" : "")\(timedOut ? " (timed out)" : ""); stderr: "
      + String(decoding: errors, as: UTF8.self)
  }
}

/// The C library's pseudo-terminal functions, looked up at run time: Glibc's module does not
/// declare them (they are X/Open extensions).
enum PseudoTerminal {
  private static func function<T>(_ name: String, as type: T.Type) -> T? {
    // The program and the libraries it loaded, the C library among them.
    dlsym(dlopen(nil, RTLD_NOW), name).map { unsafeBitCast($0, to: type) }
  }

  /// Opens a new pseudo-terminal and returns its controlling side (unlocked) and the path of
  /// the terminal side.
  static func open() -> (controller: Int32, terminal: String)? {
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    guard let openPT = function("posix_openpt", as: Open.self),
      let grant = function("grantpt", as: Open.self),
      let unlock = function("unlockpt", as: Open.self),
      let name = function("ptsname", as: Name.self)
    else { return nil }
    let controller = openPT(O_RDWR | O_NOCTTY)
    guard controller >= 0 else { return nil }
    guard grant(controller) == 0, unlock(controller) == 0, let path = name(controller) else {
      close(controller)
      return nil
    }
    return (controller, String(cString: path))
  }
}

/// Runs of `todo` with a standard input or output that `runChild` does not make: a terminal, a
/// pipe nobody reads.
enum TodoProcesses {
  /// Runs `todo` with a pseudo-terminal as its standard input (so it prompts), types `typed`
  /// into it and then the end-of-file character, and returns its exit status and standard
  /// output (a file, not the terminal).
  ///
  /// The terminal is in canonical mode: each line is read as typed, and the end-of-file
  /// character at the start of a line makes the next read return the end of input.
  static func runAtTerminal(
    _ arguments: [String],
    typing typed: String,
    in directory: URL
  ) async throws -> TerminalRun {
    let executable = try #require(TodoExecutable.url, "build the todo product first")
    let (controller, name) = try #require(PseudoTerminal.open(), "no pseudo-terminal")
    defer { close(controller) }
    let terminal = open(name, O_RDWR | O_NOCTTY)
    try #require(terminal >= 0, "cannot open \(name): errno \(errno)")
    let terminalHandle = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)

    let output = directory.appendingPathComponent("terminal-\(UUID().uuidString).out")
    let errors = directory.appendingPathComponent("terminal-\(UUID().uuidString).err")
    for file in [output, errors] {
      _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    }
    defer {
      try? FileManager.default.removeItem(at: output)
      try? FileManager.default.removeItem(at: errors)
    }
    let outputHandle = try FileHandle(forWritingTo: output)
    let errorHandle = try FileHandle(forWritingTo: errors)
    defer {
      try? outputHandle.close()
      try? errorHandle.close()
    }

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardInput = terminalHandle
    process.standardOutput = outputHandle
    process.standardError = errorHandle
    let exited = Signal()
    process.terminationHandler = { _ in exited.fire() }
    try process.run()
    try terminalHandle.close()  // the child has its own copy

    // What is typed waits in the terminal's input queue until `todo` reads it.
    let keys = Array((typed + "\u{4}").utf8)
    let written = keys.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    #expect(written == keys.count)

    // The terminal echoes what is typed: read the echo as it comes, so that it never fills the
    // terminal's buffer, until the process has exited and the terminal is closed (EIO).
    let echoEnded = Signal()
    let echo = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while read(controller, &buffer, buffer.count) > 0 {}
      echoEnded.fire()
    }
    echo.start()

    var timedOut = false
    if !(await exited.wait(timeout: .seconds(60))) {
      kill(process.processIdentifier, SIGKILL)
      timedOut = true
      _ = await exited.wait(timeout: .seconds(30))
    }
    process.waitUntilExit()
    #expect(await echoEnded.wait(timeout: .seconds(30)), "the terminal did not close")
    return TerminalRun(
      status: process.terminationStatus,
      signalled: process.terminationReason == .uncaughtSignal,
      timedOut: timedOut,
      output: try Data(contentsOf: output),
      errors: try Data(contentsOf: errors)
    )
  }

  /// Runs `todo` with its standard output a pipe whose reading end is closed before it starts
  /// (as `todo list | head -0` ends up), and returns its status and standard error.
  static func runWithClosedOutput(
    _ arguments: [String],
    in directory: URL
  ) async throws -> (status: Int32, signalled: Bool, errors: String) {
    let executable = try #require(TodoExecutable.url, "build the todo product first")
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let errors = directory.appendingPathComponent("closed-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errors) }
    let errorHandle = try FileHandle(forWritingTo: errors)
    defer { try? errorHandle.close() }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = pipe.fileHandleForWriting
    process.standardError = errorHandle
    let exited = Signal()
    process.terminationHandler = { _ in exited.fire() }
    try process.run()
    try pipe.fileHandleForWriting.close()
    if !(await exited.wait(timeout: .seconds(60))) {
      kill(process.processIdentifier, SIGKILL)
      Issue.record("todo \(arguments) did not finish")
      _ = await exited.wait(timeout: .seconds(30))
    }
    process.waitUntilExit()
    return (
      process.terminationStatus,
      process.terminationReason == .uncaughtSignal,
      String(decoding: try Data(contentsOf: errors), as: UTF8.self)
    )
  }
}
