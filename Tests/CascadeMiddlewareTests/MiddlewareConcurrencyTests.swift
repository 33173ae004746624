import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Foundation
import MetricsTestKit
import Testing

/// One set of middleware values shared by several architectures processing on several threads at
/// once (run under TSan in CI).
@Suite(.checksResources)
struct MiddlewareConcurrencyTests {
  static let perArchitecture = 200

  @Test func sharedMiddlewaresKeepEveryInputInOrderPerArchitecture() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("shared.jsonl")
    let buffer = RecordingBuffer()
    let metrics = TestMetrics()
    let sink = InMemoryAnalyticsSink()
    let reports = Journal<Int>()
    let middlewares: [any Middleware<Op, Tally>] = [
      MetricsMiddleware(label: "shared", factory: metrics),
      AnalyticsMiddleware(sink: sink) { op, _ in
        if case .note(let text) = op {
          AnalyticsEvent("note", ["text": .string(text)])
        } else {
          nil
        }
      },
      ErrorReportingMiddleware(
        error: { op in if case .multiply(0) = op { CancellationError() } else { nil } },
        handler: { reports.append($0.state.steps) }
      ),
      RecordingMiddleware(buffer: buffer),
      RecordingMiddleware(file: url),
    ]
    let architectures = Arch.allCases + Arch.allCases

    let finals = await withTaskGroup(of: (Int, Tally).self) { group in
      for (index, arch) in architectures.enumerated() {
        group.addTask {
          let running = Running.make(arch, middlewares: middlewares)
          for step in 0..<Self.perArchitecture {
            running.send(step.isMultiple(of: 50) ? .multiply(0) : .note("\(index)-\(step)"))
          }
          return (index, running.state())
        }
      }
      var finals: [Int: Tally] = [:]
      for await (index, state) in group { finals[index] = state }
      return finals
    }

    // A reactor's recording also holds each action's mutation, on a line of its own.
    let lines = architectures.map { $0 == .reactor ? 2 : 1 }.reduce(0, +) * Self.perArchitecture
    for recording in [buffer.recording(of: Op.self), try Recording<Op>(contentsOf: url)] {
      #expect(recording.isComplete)
      #expect(recording.entries.map(\.sequence) == (1...UInt64(lines)).map { $0 })
      #expect(recording.inputs.count == architectures.count * Self.perArchitecture)
      // Each architecture's notes appear in the order it sent them.
      for index in architectures.indices {
        let notes = recording.inputs.compactMap { op -> String? in
          if case .note(let text) = op, text.hasPrefix("\(index)-") {
            return text
          } else {
            return nil
          }
        }
        #expect(notes == finals[index]?.notes)
      }
    }
    #expect(sink.events.count == architectures.count * (Self.perArchitecture - 4))
    #expect(reports.values.count == architectures.count * 4)
    let notes = try metrics.expectCounter("shared.inputs", [("kind", "note")])
    #expect(notes.values.reduce(0, +) == Int64(architectures.count * (Self.perArchitecture - 4)))
  }
}
