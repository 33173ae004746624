import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ClosureMiddlewareTests {
  @Test func withoutInterceptLetsEverythingThrough() {
    let middleware = ClosureMiddleware<String, Int> { _ in }

    #expect(middleware.intercept("a", state: 0) == "a")
    #expect(!middleware.wantsStateBefore)
  }

  @Test func anInterceptOnlyMiddlewareProcessesNothing() {
    let blocker = ClosureMiddleware<String, Int>(intercept: { _, _ in nil })
    let stack = MiddlewareStack<String, Int>([blocker])

    #expect(stack.intercept("a", state: 0) == nil)
    stack.process(
      MiddlewareRecord(input: "a", state: 0, sequence: 1, time: .zero, dispatcher: .none)
    )
  }

  @Test func interceptsAndProcessesWithBothClosures() {
    let seen = Journal<String>()
    let both = ClosureMiddleware<String, Int>(
      wantsStateBefore: true,
      intercept: { input, state in
        seen.append("intercept \(input) at \(state)")
        return input + "!"
      },
      process: { record in
        seen.append("process \(record.input): \(record.stateBefore ?? -1) → \(record.state)")
      }
    )
    let architecture = MiniArchitecture<String, Int>(state: 0, middlewares: [both]) { state, _ in
      state += 1
    }

    architecture.send("a")

    #expect(seen.values == ["intercept a at 0", "process a!: 0 → 1"])
  }

  @Test func interceptsWithTheClosure() {
    let seen = Journal<String>()
    let readOnly = ClosureMiddleware<String, Bool>(intercept: { input, isReadOnly in
      seen.append("\(input) \(isReadOnly)")
      return isReadOnly && input.hasPrefix("edit") ? nil : input.uppercased()
    })

    #expect(readOnly.intercept("edit", state: true) == nil)
    #expect(readOnly.intercept("edit", state: false) == "EDIT")
    #expect(readOnly.intercept("view", state: true) == "VIEW")
    #expect(seen.values == ["edit true", "edit false", "view true"])
  }

  @Test func processesWithTheClosure() {
    let seen = Journal<String>()
    let analytics = ClosureMiddleware<String, Int> { record in
      seen.append("\(record.sequence): \(record.input) → \(record.state)")
    }
    let stack = MiddlewareStack<String, Int>([analytics])

    stack.process(
      MiddlewareRecord(input: "buy", state: 3, sequence: 9, time: .zero, dispatcher: .none)
    )

    #expect(seen.values == ["9: buy → 3"])
  }

  @Test func asksForTheStateBeforeWhenTold() {
    let wanting = ClosureMiddleware<String, Int>(wantsStateBefore: true) { _ in }

    #expect(wanting.wantsStateBefore)
    #expect(MiddlewareStack<String, Int>([wanting]).wantsStateBefore)
  }

  @Test func canDispatchThroughTheRecord() {
    let reduced = Journal<String>()
    // Guarded self-dispatch: `ping` leads to one `pong`, and `pong` to nothing.
    let ponger = ClosureMiddleware<String, Int> { record in
      if record.input == "ping" { record.dispatcher.dispatch("pong") }
    }
    let architecture = MiniArchitecture<String, Int>(state: 0, middlewares: [ponger]) { _, input in
      reduced.append(input)
    }

    architecture.send("ping")

    #expect(reduced.values == ["ping", "pong"])
  }
}
