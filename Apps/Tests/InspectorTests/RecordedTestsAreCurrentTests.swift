import AppSupport
import AppTestSupport
import Foundation
import InspectorKit
import Testing

/// The tests generated from the samples' recordings (`Apps/Tests/<App>Tests/Recorded/`) are what
/// the generator makes of those recordings today: a change to the generator, or to an app's
/// types, that would make them differently fails here until `Tooling/recording-tests.sh` makes
/// them again.
@Suite struct RecordedTestsAreCurrentTests {
  /// The recordings: app, command, test target, suite prefix (as `Tooling/recording-tests.sh`
  /// lists them).
  static let recordings = [
    ("rpg", "play", "RPGTests", "RPGPlay"),
    ("movies", "browse", "MoviesTests", "MoviesBrowse"),
    ("todo", "shell", "TodoTests", "TodoShell"),
  ]

  static var cases: [(RecordedTestFiles, Architecture)] {
    recordings.flatMap { app, command, target, prefix in
      Architecture.allCases.map { architecture in
        let files = RecordedTestFiles(
          app: app,
          command: command,
          architecture: architecture.rawValue,
          target: target,
          prefix: prefix
        )
        return (files, architecture)
      }
    }
  }

  @Test(arguments: cases)
  func theGeneratedTestIsWhatItsRecordingMakes(
    _ files: RecordedTestFiles,
    _ architecture: Architecture
  ) async throws {
    let source = try await RecordingTestExport.source(
      forRecordingAt: files.recording.path,
      suite: files.suite,
      generator: files.generator
    )
    let committed = try String(contentsOf: files.test, encoding: .utf8)
    #expect(source == committed, "make it again with Tooling/recording-tests.sh")
  }
}
