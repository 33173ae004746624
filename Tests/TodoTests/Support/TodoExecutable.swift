import CascadeTestSupport
import Foundation
import Testing

/// What a run of the `todo` executable did.
struct TodoRun: Sendable {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs and waits for the built `todo` executable.
enum TodoExecutable {
  /// The `todo` executable in the build products directory, next to the test bundle.
  static let url: URL? = builtProduct(named: "todo")

  /// Runs `todo` and returns its status and output.
  ///
  /// It runs with `arguments`, `input` on its standard input (then closed), in `directory`. A run
  /// that takes longer than `timeout` is killed and fails the test.
  static func run(
    _ arguments: [String],
    input: String = "",
    in directory: URL,
    environment: [String: String] = [:],
    timeout: Duration = .seconds(60)
  ) async throws -> TodoRun {
    let executable = try #require(url, "the todo executable was not found next to the tests")
    let name = UUID().uuidString
    let inputFile = directory.appendingPathComponent("\(name).in")
    let outputFile = directory.appendingPathComponent("\(name).out")
    let errorFile = directory.appendingPathComponent("\(name).err")
    defer {
      for file in [inputFile, outputFile, errorFile] {
        try? FileManager.default.removeItem(at: file)
      }
    }
    try Data(input.utf8).write(to: inputFile)
    for file in [outputFile, errorFile] {
      _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let deadline = ContinuousClock.now + timeout
    while process.isRunning {
      if ContinuousClock.now > deadline {
        process.terminate()
        process.waitUntilExit()
        Issue.record("todo \(arguments) did not finish within \(timeout)")
        break
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    process.waitUntilExit()
    return TodoRun(
      status: process.terminationStatus,
      output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
      errors: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
    )
  }
}
