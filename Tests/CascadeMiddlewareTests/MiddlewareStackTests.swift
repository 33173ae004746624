import CascadeMiddleware
import CascadeStreams
import Testing

@Suite
struct MiddlewareStackTests {
  struct Uppercasing: Middleware {
    func intercept(_ input: String, state: Int) -> String? { input.uppercased() }
  }

  struct Blocking: Middleware {
    func intercept(_ input: String, state: Int) -> String? { input == "BLOCK" ? nil : input }
  }

  final class Seen: Middleware, @unchecked Sendable {
    // Safety: only used from the single-threaded test below.
    var events: [String] = []
    func process(event: String, state: Int) { events.append("\(event)@\(state)") }
  }

  @Test func interceptsInOrderAndBlocks() {
    let stack = MiddlewareStack<String, Int>([Uppercasing(), Blocking()])
    #expect(stack.intercept("go", state: 0) == "GO")
    #expect(stack.intercept("block", state: 0) == nil)
    #expect(!stack.wantsStateBefore)
  }

  @Test func seedFormReceivesInputAndState() {
    let seen = Seen()
    let stack = MiddlewareStack<String, Int>([seen])
    stack.process(
      MiddlewareRecord(input: "a", state: 1, sequence: 1, time: .zero, dispatcher: .none)
    )
    #expect(seen.events == ["a@1"])
  }
}
