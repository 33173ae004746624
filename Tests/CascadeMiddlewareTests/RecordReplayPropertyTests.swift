import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Foundation
import PropertyBased
import Testing

@Suite(.checksResources)
struct RecordReplayPropertyTests {
  /// Random op sequences, with notes that JSON must escape.
  static let sessions = Gen<Op>.oneOf(
    Gen.int(in: -50...50).map(Op.add),
    Gen.int(in: -3...3).map(Op.multiply),
    Gen.always(Op.reset),
    Gen<String?>.element(of: ["", "milk", "a \"quote\"", "line\nbreak", "tab\t/slash", "é 🙂"])
      .map { Op.note($0 ?? "") }
  ).array(of: 0...40)

  // AT: record → replay reaches the identical final state, for each architecture.
  @Test(arguments: Arch.allCases)
  func replayingARecordingReachesTheSameState(_ arch: Arch) async {
    await propertyCheck(count: 60, input: Self.sessions) { ops in
      let buffer = RecordingBuffer()
      let original = Running.make(arch, middlewares: [RecordingMiddleware(buffer: buffer)])
      for op in ops { original.send(op) }

      let recording = buffer.recording(of: Op.self)
      #expect(recording.isComplete)
      #expect(recording.inputs == ops)
      // A reactor's recording also holds each action's mutation, on a line of its own.
      let lines = arch == .reactor ? 2 * ops.count : ops.count
      #expect(recording.entries.map(\.sequence) == (0..<UInt64(lines)).map { $0 + 1 })

      let fresh = Running.make(arch)
      recording.replay(into: fresh.send)
      #expect(fresh.state() == original.state())
    }
  }

  // The same through a file, and across architectures: a store's recording replays into a
  // reactor and a feedback loop built on the same reducer.
  @Test func aFileRecordingReplaysIntoEveryArchitecture() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    await propertyCheck(count: 20, input: Self.sessions) { ops in
      let url = directory.file("\(UUID().uuidString).jsonl")
      let original = Running.make(.store, middlewares: [RecordingMiddleware(file: url)])
      for op in ops { original.send(op) }

      let recording = try Recording<Op>(contentsOf: url)
      #expect(recording.isComplete)
      for arch in Arch.allCases {
        let fresh = Running.make(arch)
        recording.replay(into: fresh.send)
        #expect(fresh.state() == original.state(), "replayed into \(arch)")
      }
    }
  }

  // A recording cut anywhere replays the part before the cut.
  @Test func aRecordingCutAnywhereReplaysWhatCameBefore() async {
    await propertyCheck(count: 60, input: Self.sessions, Gen.int(in: 0...10_000)) { ops, cutAt in
      let buffer = RecordingBuffer()
      let original = Running.make(.store, middlewares: [RecordingMiddleware(buffer: buffer)])
      for op in ops { original.send(op) }
      let text = buffer.jsonLines
      let bytes = Array(text.utf8)
      let cut = bytes.isEmpty ? 0 : cutAt % bytes.count
      let recording = Recording<Op>(jsonLines: String(decoding: bytes[..<cut], as: UTF8.self))

      // Every complete line before the cut is kept, in order.
      let kept = recording.inputs
      #expect(Array(ops.prefix(kept.count)) == kept)
      let completeLines = bytes[..<cut].filter { $0 == 0x0A }.count
      #expect(kept.count >= completeLines)
      if let damage = recording.damage {
        #expect(damage.line == kept.count + 1)
        #expect(damage.reason == .truncated)
      }
    }
  }
}
