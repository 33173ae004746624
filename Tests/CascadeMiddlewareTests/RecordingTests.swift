import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Foundation
import Testing

@Suite(.checksResources)
struct RecordingTests {
  @Test func recordsEachInputAsOneJSONLineWithSequenceAndTime() {
    let buffer = RecordingBuffer()
    let clock = TestScheduler()
    let store = Running.make(
      .store,
      middlewares: [RecordingMiddleware(buffer: buffer, now: { clock.now })]
    )

    store.send(.add(2))
    clock.advance(by: .milliseconds(1500))
    store.send(.note("a \"quoted\"\nline"))
    store.send(.reset)

    #expect(
      buffer.lines == [
        #"{"input":{"add":{"_0":2}},"sequence":1,"time":0.0}"#,
        #"{"input":{"note":{"_0":"a \"quoted\"\nline"}},"sequence":2,"time":1.5}"#,
        #"{"input":{"reset":{}},"sequence":3,"time":1.5}"#,
      ]
    )
    let recording = buffer.recording(of: Op.self)
    #expect(recording.isComplete)
    #expect(recording.inputs == [.add(2), .note("a \"quoted\"\nline"), .reset])
    #expect(recording.entries.map(\.sequence) == [1, 2, 3])
    #expect(
      recording.entries.map(\.time.offset) == [.zero, .milliseconds(1500), .milliseconds(1500)]
    )
  }

  @Test func recordsToAFileThatReadsBack() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("session.jsonl")
    let recorder = RecordingMiddleware<Op, Tally>(file: url)
    let store = Running.make(.store, middlewares: [recorder])

    for op in [Op.add(5), .multiply(3), .note("x"), .add(-1)] { store.send(op) }

    let recording = try Recording<Op>(contentsOf: url)
    #expect(recording.isComplete)
    #expect(recording.inputs == [.add(5), .multiply(3), .note("x"), .add(-1)])
    #expect(recorder.recordedCount == 4)

    let fresh = Running.make(.store)
    recording.replay(into: fresh.send)
    #expect(fresh.state() == store.state())
    #expect(fresh.state() == Tally(value: 14, notes: ["x"], steps: 4))
  }

  @Test func aNewRecorderReplacesTheFileUnlessAskedToAppend() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("session.jsonl")

    let first = RecordingMiddleware<Op, Tally>(file: url)
    _ = first.intercept(.add(1), state: Tally())
    let replacing = RecordingMiddleware<Op, Tally>(file: url)
    _ = replacing.intercept(.add(2), state: Tally())
    #expect(try Recording<Op>(contentsOf: url).inputs == [.add(2)])

    let appending = RecordingMiddleware<Op, Tally>(file: url, append: true)
    _ = appending.intercept(.add(3), state: Tally())
    #expect(try Recording<Op>(contentsOf: url).inputs == [.add(2), .add(3)])
  }

  @Test func aTruncatedRecordingKeepsEveryRecordBeforeTheCut() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("cut.jsonl")
    let recorder = RecordingMiddleware<Op, Tally>(file: url)
    let store = Running.make(.store, middlewares: [recorder])
    for op in [Op.add(1), .add(2), .add(3)] { store.send(op) }

    // The application died in the middle of writing the third record.
    let text = try String(contentsOf: url, encoding: .utf8)
    let cut = String(text.dropLast(12))
    try Data(cut.utf8).write(to: url)

    let recording = try Recording<Op>(contentsOf: url)
    #expect(recording.inputs == [.add(1), .add(2)])
    #expect(!recording.isComplete)
    // Line 1 is the format header; the third record is line 4.
    #expect(recording.damage?.line == 4)
    #expect(recording.damage?.reason == .truncated)
    #expect(recording.damage?.description.hasPrefix("line 4: truncated recording") == true)
    #expect(throws: RecordingDamage.self) { try recording.allEntries() }

    // Everything before the cut still replays.
    let fresh = Running.make(.store)
    recording.replay(into: fresh.send)
    #expect(fresh.state().value == 3)
  }

  @Test func aCorruptLineIsReportedWithItsNumber() {
    let text = """
      {"input":{"add":{"_0":1}},"sequence":1,"time":0}

      {"input":{"add":{"_0":2}},"sequence":2,"time":0.5}
      {"input":{"explode":{}},"sequence":3,"time":1}
      {"input":{"add":{"_0":4}},"sequence":4,"time":2}

      """
    let recording = Recording<Op>(jsonLines: text)

    #expect(recording.inputs == [.add(1), .add(2)])
    #expect(recording.damage?.line == 4)
    guard case .corrupt(let details) = recording.damage?.reason else {
      Issue.record("expected a corrupt line, got \(String(describing: recording.damage))")
      return
    }
    #expect(!details.isEmpty)
    #expect(recording.damage?.text == #"{"input":{"explode":{}},"sequence":3,"time":1}"#)
  }

  /// A time no recorder writes — beyond what `Duration` holds, negative, not a number — is a
  /// corrupt line, reported with its number; reading it once trapped (found by fuzz-recording).
  @Test(arguments: ["1e30", "-1", "1.7976931348623157e308", "1e12.5", "\"NaN\""])
  func aTimeOutOfRangeIsACorruptLine(time: String) {
    let text = """
      {"input":{"add":{"_0":1}},"sequence":1,"time":1e12}
      {"input":{"add":{"_0":2}},"sequence":2,"time":\(time)}
      {"input":{"add":{"_0":4}},"sequence":3,"time":2}

      """
    let recording = Recording<Op>(jsonLines: text)

    #expect(recording.inputs == [.add(1)])
    #expect(recording.entries.first?.time.offset == .seconds(1_000_000_000_000))
    #expect(recording.damage?.line == 2)
    guard case .corrupt = recording.damage?.reason else {
      Issue.record("expected a corrupt line, got \(String(describing: recording.damage))")
      return
    }
  }

  @Test func garbageIsCorruptNotTruncated() {
    let recording = Recording<Op>(jsonLines: "not json\n")
    #expect(recording.entries.isEmpty)
    #expect(recording.damage?.line == 1)
    #expect(recording.damage?.reason != .truncated)
  }

  @Test func anEmptyRecordingIsComplete() {
    let recording = Recording<Op>(jsonLines: "")
    #expect(recording.isComplete)
    #expect(recording.entries.isEmpty)
  }

  // The failure path of a middleware: its work fails, the architecture goes on.
  @Test func aRecorderThatCannotWriteReportsItAndTheArchitectureGoesOn() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("missing-folder/session.jsonl")
    let failures = Journal<RecordingWriteError>()
    let recorder = RecordingMiddleware<Op, Tally>(file: url, onError: { failures.append($0) })
    let store = Running.make(.store, middlewares: [recorder])

    store.send(.add(1))
    store.send(.add(2))

    #expect(store.state().value == 3)
    #expect(failures.values.map(\.sequence) == [1, 2])
    #expect(failures.values.first?.description.hasPrefix("record #1 was not written") == true)

    // Once the folder exists, the next record is written.
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    store.send(.add(3))
    #expect(failures.values.count == 2)
    #expect(try Recording<Op>(contentsOf: url).entries.map(\.sequence) == [3])
  }

  @Test func anInputThatCannotBeEncodedIsReported() {
    struct Unencodable: Codable, Sendable {
      struct Refused: Error {}
      init() {}
      init(from decoder: any Decoder) throws { throw Refused() }
      func encode(to encoder: any Encoder) throws { throw Refused() }
    }
    let failures = Journal<RecordingWriteError>()
    let directory = FileManager.default.temporaryDirectory
    let recorder = RecordingMiddleware<Unencodable, Int>(
      file: directory.appendingPathComponent("never-\(UUID().uuidString).jsonl"),
      onError: { failures.append($0) }
    )

    #expect(recorder.intercept(Unencodable(), state: 0) != nil)
    #expect(failures.values.map(\.sequence) == [1])
    #expect(failures.values.first?.underlying is Unencodable.Refused)
  }
}
