import CascadeMiddleware
import CascadeStreams
import CascadeTestSupport
import Foundation
import Testing

/// A recording is a file format with a version.
///
/// The current reader and writer are pinned to a committed fixture, and a file of another
/// version is refused with both versions named. Issue 19.
@Suite struct RecordingFormatTests {
  /// `Tests/CascadeMiddlewareTests/Fixtures/recording-v1.jsonl`: version 1, as committed.
  static let fixture = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("Fixtures/recording-v1.jsonl")

  static let inputs: [Op] = [.add(2), .multiply(5), .reset, .note("ünïcode \"quoted\"\n")]

  // The reader reads the committed version-1 file: every entry, with its sequence and time.
  @Test func theCurrentReaderReadsTheVersion1Fixture() throws {
    let recording = try Recording<Op>(contentsOf: Self.fixture)
    #expect(recording.isComplete)
    #expect(recording.inputs == Self.inputs)
    #expect(recording.entries.map(\.sequence) == [1, 2, 3, 4])
    #expect(
      recording.entries.map(\.time.offset)
        == [.zero, .milliseconds(1_500), .seconds(3), .milliseconds(4_500)]
    )
  }

  // The writer writes exactly the fixture for the same inputs at the same times: a change of
  // format shows here, and must come with a new version and a new fixture.
  @Test func theWriterWritesTheFixtureByteForByte() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("written.jsonl")
    let tick = Counter()
    let recorder = RecordingMiddleware<Op, Tally>(
      file: url,
      now: { SchedulerInstant(offset: .milliseconds(1_500 * (tick.increment() - 1))) }
    )
    for input in Self.inputs { _ = recorder.intercept(input, state: Tally()) }
    #expect(try Data(contentsOf: url) == Data(contentsOf: Self.fixture))
  }

  // A recording of a later format is refused, never misread: the error names both versions.
  @Test func aLaterFormatVersionIsRefusedNamingBothVersions() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("later.jsonl")
    let later = #"""
      {"cascadeRecording":2}
      {"input":{"add":{"_0":2}},"sequence":1,"time":0}

      """#
    try Data(later.utf8).write(to: url)
    #expect {
      try Recording<Op>(contentsOf: url)
    } throws: { error in
      guard let damage = error as? RecordingDamage else { return false }
      return damage.reason == .unsupportedVersion(found: 2, supported: 1)
        && damage.description.contains("format version 2")
        && damage.description.contains("reads version 1")
    }
    let read = Recording<Op>(jsonLines: later)
    #expect(read.entries.isEmpty)
    #expect(read.damage?.line == 1)
  }

  // Without a header (an in-memory buffer, a file from before the header), lines read as
  // version 1.
  @Test func aRecordingWithoutAHeaderReadsAsVersion1() throws {
    let text = try String(contentsOf: Self.fixture, encoding: .utf8)
    let withoutHeader = text.split(separator: "\n").dropFirst().joined(separator: "\n") + "\n"
    let recording = Recording<Op>(jsonLines: withoutHeader)
    #expect(recording.isComplete)
    #expect(recording.inputs == Self.inputs)
  }
}
