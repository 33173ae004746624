import AppSupport
import AppTestSupport
import Foundation
import RPGCore
import Testing

/// The tests generated from the game's recordings (`Recorded/`) are what the generator makes of
/// those recordings today: a change to the generator, or to the game's types, that would make
/// them differently fails here until `Tooling/recording-tests.sh` makes them again.
@Suite struct RecordedTestsAreCurrentTests {
  @Test(arguments: Architecture.allCases)
  func theGeneratedTestIsWhatItsRecordingMakes(_ architecture: Architecture) async throws {
    let files = RecordedTestFiles(
      app: "rpg",
      command: "play",
      architecture: architecture.rawValue,
      target: "RPGTests",
      prefix: "RPGPlay"
    )
    let source = try await gameRecordingTest(
      contentsOf: files.recording,
      suite: files.suite,
      generator: files.generator
    )
    let committed = try String(contentsOf: files.test, encoding: .utf8)
    #expect(source == committed, "make it again with Tooling/recording-tests.sh")
  }
}
