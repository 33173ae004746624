import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Foundation
import Testing

@Suite(.checksResources)
struct AnalyticsMiddlewareTests {
  static func events(_ op: Op, _ state: Tally) -> AnalyticsEvent? {
    switch op {
    case .add(let amount):
      AnalyticsEvent("added", ["amount": .int(amount), "total": .int(state.value)])
    case .note(let text): AnalyticsEvent("noted", ["length": .int(text.count), "first": true])
    case .multiply, .reset: nil
    }
  }

  @Test(arguments: Arch.allCases)
  func mapsChosenInputsToNamedEvents(_ arch: Arch) {
    let sink = InMemoryAnalyticsSink()
    let analytics = AnalyticsMiddleware<Op, Tally>(sink: sink, events: Self.events)
    let running = Running.make(arch, middlewares: [analytics])

    running.send(.add(2))
    running.send(.multiply(3))
    running.send(.note("hey"))
    running.send(.reset)
    running.send(.add(4))

    #expect(
      sink.events == [
        AnalyticsEvent("added", ["amount": 2, "total": 2]),
        AnalyticsEvent("noted", ["length": 3, "first": true]),
        AnalyticsEvent("added", ["amount": 4, "total": 4]),
      ]
    )
  }

  @Test func theFileSinkWritesOneJSONLinePerEvent() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("analytics.jsonl")
    let sink = FileAnalyticsSink(url: url)
    let running = Running.make(
      .store,
      middlewares: [AnalyticsMiddleware(sink: sink, events: Self.events)]
    )

    running.send(.add(2))
    running.send(.note("x"))

    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(
      text == """
        {"name":"added","properties":{"amount":2,"total":2}}
        {"name":"noted","properties":{"first":true,"length":1}}

        """
    )
    #expect(
      try FileAnalyticsSink.events(in: url) == [
        AnalyticsEvent("added", ["amount": 2, "total": 2]),
        AnalyticsEvent("noted", ["length": 1, "first": true]),
      ]
    )
    #expect(sink.url == url)
  }

  @Test func aFileSinkThatCannotWriteReportsEachLostEvent() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let failures = Journal<String>()
    let sink = FileAnalyticsSink(
      url: directory.file("no/such/folder.jsonl"),
      onError: { failures.append("\($0)") }
    )
    let running = Running.make(
      .store,
      middlewares: [AnalyticsMiddleware(sink: sink, events: Self.events)]
    )

    running.send(.add(1))
    running.send(.add(1))

    #expect(failures.values.count == 2)
    #expect(running.state().value == 2)
  }

  @Test func valuesRoundTripThroughJSON() throws {
    let event = AnalyticsEvent(
      "mixed",
      ["s": "text", "i": 3, "d": 2.5, "b": false, "n": .string("42")]
    )
    let data = try JSONEncoder().encode(event)
    #expect(try JSONDecoder().decode(AnalyticsEvent.self, from: data) == event)
  }
}
