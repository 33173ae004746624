import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import MetricsTestKit
import Testing

@Suite(.checksResources)
struct MetricsMiddlewareTests {
  @Test(arguments: Arch.allCases)
  func countsInputsPerKindAndTimesTheirProcessing(_ arch: Arch) throws {
    let metrics = TestMetrics()
    let middleware = MetricsMiddleware<Op, Tally>(label: "app", factory: metrics)
    let running = Running.make(arch, middlewares: [middleware])

    running.send(.add(1))
    running.send(.add(2))
    running.send(.note("x"))
    running.send(.reset)
    running.send(.add(3))

    let adds = try metrics.expectCounter("app.inputs", [("kind", "add")])
    let notes = try metrics.expectCounter("app.inputs", [("kind", "note")])
    let resets = try metrics.expectCounter("app.inputs", [("kind", "reset")])
    #expect(adds.values.reduce(0, +) == 3)
    #expect(notes.values.reduce(0, +) == 1)
    #expect(resets.values.reduce(0, +) == 1)

    let timer = try metrics.expectTimer("app.processing", [("kind", "add")])
    #expect(timer.values.count == 3)
    #expect(timer.values.allSatisfy { $0 >= 0 })
  }

  @Test func aKindClosureNamesTheKinds() throws {
    let metrics = TestMetrics()
    let middleware = MetricsMiddleware<Op, Tally>(
      factory: metrics,
      kind: { op in
        if case .add(let n) = op, n < 0 { "subtract" } else { middlewareInputKind(of: op) }
      }
    )
    let running = Running.make(.store, middlewares: [middleware])

    running.send(.add(-1))
    running.send(.add(1))

    #expect(try metrics.expectCounter("cascade.inputs", [("kind", "subtract")]).values == [1])
    #expect(try metrics.expectCounter("cascade.inputs", [("kind", "add")]).values == [1])
  }

  @Test func theDefaultKindIsTheCaseNameOrTheTypeName() {
    struct Ping: Sendable {}
    #expect(middlewareInputKind(of: Op.add(1)) == "add")
    #expect(middlewareInputKind(of: Op.reset) == "reset")
    #expect(middlewareInputKind(of: Ping()) == "Ping")
    #expect(middlewareInputKind(of: "text") == "String")
  }

  @Test func aBlockedInputCountsButRecordsNoTime() throws {
    let metrics = TestMetrics()
    let blockResets = ClosureMiddleware<Op, Tally>(intercept: { op, _ in op == .reset ? nil : op })
    let running = Running.make(
      .store,
      middlewares: [MetricsMiddleware(factory: metrics), blockResets]
    )

    running.send(.add(1))
    running.send(.reset)

    #expect(running.state().value == 1)
    #expect(try metrics.expectCounter("cascade.inputs", [("kind", "reset")]).values == [1])
    #expect(try metrics.expectTimer("cascade.processing", [("kind", "reset")]).values.isEmpty)
    #expect(try metrics.expectTimer("cascade.processing", [("kind", "add")]).values.count == 1)
  }
}
