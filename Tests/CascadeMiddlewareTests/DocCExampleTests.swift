import CascadeMiddleware
import CascadeStore
import CascadeTesting
import Foundation
import Testing

/// The runnable example of the CascadeMiddleware article, line for line (prints become
/// expectations, and the file lives in a fresh temporary directory).
@Suite(.checksResources)
struct DocCExampleTests {
  enum Op: Codable, Sendable {
    case add(Int)
    case multiply(Int)
    case reset
  }

  static func apply(_ value: inout Int, _ op: Op) {
    switch op {
    case .add(let amount): value += amount
    case .multiply(let factor): value *= factor
    case .reset: value = 0
    }
  }

  @Test func recordReplayAndTimeTravel() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("session.jsonl")

    // Record a session.
    let store = Store(
      initialState: 0,
      middlewares: [RecordingMiddleware<Op, Int>(file: url)],
      reducer: Self.apply
    )
    for op in [Op.add(2), .multiply(5), .add(1)] { store.send(op) }

    // Replay it into a fresh store: the same state.
    let recording = try Recording<Op>(contentsOf: url)
    #expect(recording.damage == nil)
    let replayed = Store(initialState: 0, reducer: Self.apply)
    let report = await recording.replay(into: replayed)
    #expect(report.replayed == 3)
    #expect(replayed.state == store.state)
    #expect(replayed.state == 11)

    // Step through it.
    var travel = TimeTravel(initialState: 0, inputs: recording.inputs, reduce: Self.apply)
    travel.stepForward()
    #expect(travel.state == 2)
    travel.jump(to: 2)
    #expect(travel.state == 10)
    travel.stepBack()
    #expect(travel.state == 2)
    #expect(travel.position == 1)

    // Or through a live architecture, reading its state after each input.
    let live = Store(initialState: 0, reducer: Self.apply)
    let steps = TimeTravel(inputs: recording.inputs, send: live.send, currentState: { live.state })
    #expect(steps.states == [0, 2, 10, 11])
  }

  /// "Inspecting your app in a browser": the recorder with its states, and the file it writes
  /// (what `cascade-inspect` reads; the samples' OwnAppInspectionTests read it with the
  /// inspector itself).
  @Test func recordingStatesForTheInspector() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("session.jsonl")

    let recorder = RecordingMiddleware<Op, Int>(file: url, recordingStates: true)
    let store = Store(initialState: 0, middlewares: [recorder], reducer: Self.apply)
    for op in [Op.add(2), .multiply(5)] { store.send(op) }

    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[2] == #"{"state":2}"#)
    #expect(lines[4] == #"{"state":10}"#)
    #expect(try Recording<Op>(contentsOf: url).inputs.count == 2)
  }

  @Test func analytics() {
    let sink = InMemoryAnalyticsSink()
    let analytics = AnalyticsMiddleware<Op, Int>(sink: sink) { op, total in
      switch op {
      case .add(let amount):
        AnalyticsEvent("added", ["amount": .int(amount), "total": .int(total)])
      case .multiply, .reset: nil
      }
    }
    let store = Store(initialState: 0, middlewares: [analytics], reducer: Self.apply)

    store.send(.add(2))
    store.send(.reset)

    #expect(sink.events == [AnalyticsEvent("added", ["amount": 2, "total": 2])])
  }

  @Test func tracingForPerfetto() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("counter.trace.json")

    let trace = ChromeTraceRecorder<Op, Int>(process: "Counter")
    let store = Store(initialState: 0, middlewares: [trace], reducer: Self.apply)
    store.send(.add(2))
    store.send(.multiply(5))
    try trace.write(to: url)  // open in Perfetto

    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    let events = try #require(object?["traceEvents"] as? [[String: Any]])
    let inputs = events.filter { $0["cat"] as? String == "input" }.map { $0["name"] as? String }
    #expect(inputs == ["add(2)", "multiply(5)"])
    #expect(store.state == 10)
  }
}
