public import Foundation

/// A recording of `Apps/Tests/Recordings/` and the test generated from it in its app's test
/// target (`Apps/Tests/<Target>/Recorded/`), as `Tooling/recording-tests.sh` makes it.
public struct RecordedTestFiles: Sendable {
  /// The recording.
  public var recording: URL
  /// The generated test.
  public var test: URL
  /// The test suite's name.
  public var suite: String
  /// The command that makes the test, as its header names it.
  public var generator: String

  /// The files of `<app>-<command>-<architecture>.jsonl`, whose test is
  /// `<Target>/Recorded/<Prefix><Architecture>RecordingTests.swift`.
  public init(app: String, command: String, architecture: String, target: String, prefix: String) {
    let name = "\(app)-\(command)-\(architecture).jsonl"
    suite =
      prefix + architecture.prefix(1).uppercased() + architecture.dropFirst()
      + "RecordingTests"
    let recordingPath = "Apps/Tests/Recordings/\(name)"
    let testPath = "Apps/Tests/\(target)/Recorded/\(suite).swift"
    recording = Self.repository.appendingPathComponent(recordingPath)
    test = Self.repository.appendingPathComponent(testPath)
    generator = "cascade-inspect \(recordingPath) --export-test \(testPath)"
  }

  /// The repository's root.
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
}
