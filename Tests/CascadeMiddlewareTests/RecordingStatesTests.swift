import CascadeMiddleware
import CascadeStreams
import CascadeTesting
import Foundation
import Testing

/// A recorder with `recordingStates` writes the state after each input on a line of its own,
/// right after the input's (a reactor's: after each mutation's), for `cascade-inspect`; the file
/// still reads and replays as a recording.
@Suite(.checksResources)
struct RecordingStatesTests {
  @Test(arguments: Arch.allCases)
  func eachInputIsFollowedByTheStateAfterIt(_ arch: Arch) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("session.jsonl")
    let recorder = RecordingMiddleware<Op, Tally>(file: file, recordingStates: true, now: { .zero })
    let running = Running.make(arch, middlewares: [recorder])

    running.send(.add(2))
    running.send(.multiply(5))
    running.send(.note("x"))

    let lines = try String(contentsOf: file, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(lines.first == #"{"cascadeRecording":1}"#)
    // What each line is: the input, a reactor's mutation, or the state after it.
    let shapes = lines.dropFirst().map { line in
      line.hasPrefix(#"{"state":"#)
        ? "state" : line.contains(#""mutation":"#) ? "mutation" : "input"
    }
    let perInput = arch == .reactor ? ["input", "mutation", "state"] : ["input", "state"]
    #expect(shapes == Array([[String]](repeating: perInput, count: 3).joined()))

    let states = try lines.filter { $0.hasPrefix(#"{"state":"#) }.map { line in
      try JSONDecoder().decode(StateLine.self, from: Data(line.utf8)).state
    }
    #expect(
      states == [
        Tally(value: 2, notes: [], steps: 1),
        Tally(value: 10, notes: [], steps: 2),
        Tally(value: 10, notes: ["x"], steps: 3),
      ]
    )
    #expect(states.last == running.state())

    // It reads as a recording: the state lines are not inputs, nor damage.
    let recording = try Recording<Op>(contentsOf: file)
    #expect(recording.isComplete)
    #expect(recording.inputs == [.add(2), .multiply(5), .note("x")])
    let replayed = Running.make(arch, middlewares: [])
    recording.replay(into: replayed.send)
    #expect(replayed.state() == running.state())
  }

  @Test func withoutStatesTheFileHoldsOnlyInputs() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("session.jsonl")
    let recorder = RecordingMiddleware<Op, Tally>(file: file, recordingStates: false)
    let running = Running.make(.store, middlewares: [recorder])

    running.send(.add(1))
    running.send(.reset)

    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(!lines.contains { $0.hasPrefix(#"{"state":"#) })
  }

  /// A state line.
  private struct StateLine: Decodable {
    var state: Tally
  }
}
