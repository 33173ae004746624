import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

@testable import CascadeMiddleware

/// The flight recorder (issue 36): the last inputs and states in a bounded ring, written as a
/// recording with states on demand (here) or when the process dies (FlightRecorderCrashTests, in
/// the samples: a sample that crashes on purpose).
@Suite(.checksResources)
struct FlightRecorderTests {
  /// What a written file holds: its lines, as shapes and decoded states.
  struct Written {
    var lines: [String]
    /// `state`, `input` or `mutation`, for each line after the header.
    var shapes: [String]
    var states: [Tally]
    var sequences: [Int]

    init(_ file: URL) throws {
      lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
      shapes = lines.dropFirst().map { line in
        line.hasPrefix(#"{"state":"#)
          ? "state" : line.contains(#""mutation":"#) ? "mutation" : "input"
      }
      states = try lines.filter { $0.hasPrefix(#"{"state":"#) }.map { line in
        try JSONDecoder().decode(StateLine.self, from: Data(line.utf8)).state
      }
      sequences = try lines.dropFirst().filter { !$0.hasPrefix(#"{"state":"#) }.map { line in
        try JSONDecoder().decode(SequenceLine.self, from: Data(line.utf8)).sequence
      }
    }
  }

  struct StateLine: Decodable { var state: Tally }
  struct SequenceLine: Decodable { var sequence: Int }

  /// Everything fits: the state before the first input, then each input and the state after it
  /// (a reactor's action, its mutation, the state), as a `RecordingMiddleware` with states
  /// writes them; the file replays to the architecture's state.
  @Test(arguments: Arch.allCases)
  func writesTheStateBeforeTheFirstInputAndEachInputAfterIt(_ arch: Arch) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("flight.jsonl")
    let flight = try FlightRecorder<Op, Tally>(file: file, dumpsOnCrash: false, now: { .zero })
    let running = Running.make(arch, middlewares: [flight])
    running.send(.add(2))
    running.send(.multiply(5))
    running.send(.note("x"))
    #expect(!FileManager.default.fileExists(atPath: file.path), "written only when asked")

    try flight.write()

    let written = try Written(file)
    #expect(written.lines.first == #"{"cascadeRecording":1}"#)
    let perInput = arch == .reactor ? ["input", "mutation", "state"] : ["input", "state"]
    #expect(written.shapes == ["state"] + Array([[String]](repeating: perInput, count: 3).joined()))
    #expect(
      written.states == [
        Tally(),
        Tally(value: 2, notes: [], steps: 1),
        Tally(value: 10, notes: [], steps: 2),
        Tally(value: 10, notes: ["x"], steps: 3),
      ]
    )
    #expect(written.states.last == running.state())
    let recording = try Recording<Op>(contentsOf: file)
    #expect(recording.inputs == [.add(2), .multiply(5), .note("x")])
    #expect(flight.droppedLines == 0)
  }

  /// A full ring keeps the newest lines within its capacity and starts the file at the oldest
  /// state it still holds; the last state is the architecture's.
  @Test(arguments: Arch.allCases)
  func aFullRingKeepsTheNewestLinesFromAState(_ arch: Arch) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("flight.jsonl")
    let capacity = 2_048
    let flight = try FlightRecorder<Op, Tally>(
      file: file,
      capacity: capacity,
      dumpsOnCrash: false,
      now: { .zero }
    )
    let running = Running.make(arch, middlewares: [flight])
    for amount in 1...500 { running.send(.add(amount)) }

    try flight.write()

    let written = try Written(file)
    #expect(written.shapes.first == "state")
    #expect(written.states.last == running.state())
    #expect(written.states.last?.steps == 500)
    // Each line costs its length, a newline and 4 bytes in the ring besides its kind.
    let held = written.lines.dropFirst().reduce(0) { $0 + $1.utf8.count + 5 }
    #expect(held <= capacity)
    #expect(held > capacity / 2, "the ring is not left mostly empty")
    // The newest inputs, in order, up to the last.
    let last = written.sequences.last ?? 0
    #expect(last == (arch == .reactor ? 1_000 : 500))
    #expect(written.sequences == Array((last - written.sequences.count + 1)...last))
    // Each state in the file is the one after the input before it.
    let replayedFrom = written.states[0]
    #expect(replayedFrom.steps < 500)
  }

  /// A line larger than the whole ring is left out, and counted; the state before it stays.
  @Test func aLineLargerThanTheRingIsLeftOut() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("flight.jsonl")
    let flight = try FlightRecorder<Op, Tally>(file: file, capacity: 1_024, dumpsOnCrash: false)
    let running = Running.make(.store, middlewares: [flight])
    running.send(.note(String(repeating: "x", count: 2_000)))
    // The input's line and the state's after it, which holds the note.
    #expect(flight.droppedLines == 2)
    try flight.write()
    #expect(
      try Written(file).lines == [
        #"{"cascadeRecording":1}"#, #"{"state":{"notes":[],"steps":0,"value":0}}"#,
      ]
    )
  }

  /// A path that is not a regular file is refused when the recorder is made, and nothing is
  /// written there; nor is a file in a directory that does not exist.
  @Test func aPathThatIsNotARegularFileIsRefused() throws {
    #expect(throws: RecordingFileError(path: "/dev/null", problem: .notRegularFile)) {
      try FlightRecorder<Op, Tally>(file: URL(fileURLWithPath: "/dev/null"), dumpsOnCrash: false)
    }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let missing = directory.file("missing/flight.jsonl")
    #expect(throws: RecordingFileError.self) {
      try FlightRecorder<Op, Tally>(file: missing, dumpsOnCrash: false)
    }
    #expect(throws: RecordingFileError(path: directory.url.path, problem: .notRegularFile)) {
      try FlightRecorder<Op, Tally>(file: directory.url, dumpsOnCrash: false)
    }
  }
}

/// The crash handler's path, run in the test process (a real crash is the samples'
/// FlightRecorderCrashTests): it writes the same file as `write()`.
@Suite(.checksResources)
struct FlightRecorderCrashPathTests {
  @Test(arguments: Arch.allCases)
  func theCrashPathWritesWhatWriteWrites(_ arch: Arch) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let onDemand = directory.file("on-demand.jsonl")
    let onCrash = directory.file("on-crash.jsonl")
    let first = try FlightRecorder<Op, Tally>(
      file: onDemand,
      capacity: 1_500,
      dumpsOnCrash: false,
      now: { .zero }
    )
    let second = try FlightRecorder<Op, Tally>(
      file: onCrash,
      capacity: 1_500,
      dumpsOnCrash: false,
      now: { .zero }
    )
    let running = Running.make(arch, middlewares: [first, second])
    for amount in 1...200 { running.send(.add(amount)) }

    try first.write()
    #expect(second.writeAsOnCrash())

    let written = try String(contentsOf: onCrash, encoding: .utf8)
    #expect(written == (try String(contentsOf: onDemand, encoding: .utf8)))
    #expect(written.hasPrefix(#"{"cascadeRecording":1}"# + "\n" + #"{"state":"#))
    let lastState = try #require(written.split(separator: "\n").last)
    #expect(
      try JSONDecoder().decode(FlightRecorderTests.StateLine.self, from: Data(lastState.utf8))
        .state == running.state()
    )
  }
}
