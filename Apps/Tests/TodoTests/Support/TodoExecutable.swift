import AppTestSupport
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
  /// It runs with `arguments`, `input` on its standard input (then closed), in `directory`, and
  /// is awaited on its termination (no thread blocks or polls meanwhile). A run that takes longer
  /// than `timeout` (a safety net) is killed and fails the test.
  static func run(
    _ arguments: [String],
    input: String = "",
    in directory: URL,
    environment: [String: String] = [:],
    timeout: Duration = .seconds(60)
  ) async throws -> TodoRun {
    let executable = try #require(url, "the todo executable was not found next to the tests")
    let run = try await runChild(
      executable,
      arguments,
      input: .text(input),
      in: directory,
      environment: environment,
      timeout: timeout
    )
    if run.timedOut { Issue.record("todo \(arguments) did not finish within \(timeout)") }
    return TodoRun(status: run.status, output: run.outputText, errors: run.errorText)
  }
}
