import CascadeFeedback
import CascadeMiddleware
import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTesting
import Logging
import Testing

@Suite(.checksResources)
struct CrossArchitectureTests {
  // AT: one middleware value serves a Store, a Reactor and a Feedback system.
  @Test func theSameLoggingMiddlewareAndRecorderServeAllThreeArchitectures() {
    let logs = CapturedLogs()
    let logging = LoggingMiddleware<Op, Tally>(
      logger: logs.logger(level: .info),
      redact: { op in if case .note = op { "note(***)" } else { String(describing: op) } }
    )
    let buffer = RecordingBuffer()
    let recorder = RecordingMiddleware<Op, Tally>(buffer: buffer, now: { .zero })
    let middlewares: [any Middleware<Op, Tally>] = [logging, recorder]

    let store = Running.make(.store, middlewares: middlewares)
    let reactor = Running.make(.reactor, middlewares: middlewares)
    let feedback = Running.make(.feedback, middlewares: middlewares)

    store.send(.add(1))
    reactor.send(.add(2))
    feedback.send(.add(3))
    store.send(.note("secret"))
    reactor.send(.multiply(5))
    feedback.send(.reset)

    #expect(store.state() == Tally(value: 1, notes: ["secret"], steps: 2))
    #expect(reactor.state() == Tally(value: 10, notes: [], steps: 2))
    #expect(feedback.state() == Tally(value: 0, notes: [], steps: 2))
    // Each architecture numbers its own inputs; the line shows them in the order they came.
    let logged = logs.messages.map { $0.split(separator: " ", maxSplits: 2).last.map(String.init) }
    // The reactor's lines also show the mutation each action made.
    #expect(
      logged == [
        "add(1)", "add(2) [add(2)]", "add(3)", "note(***)", "multiply(5) [multiply(5)]", "reset",
      ]
    )
    #expect(logs.messages.allSatisfy { $0.hasPrefix("#1 ") || $0.hasPrefix("#2 ") })
    // One recorder saw all six inputs, in order, whichever architecture they went to.
    #expect(
      buffer.recording(of: Op.self).inputs == [
        .add(1), .add(2), .add(3), .note("secret"), .multiply(5), .reset,
      ]
    )
  }

  // AT: a middleware's dispatched inputs are queued behind the current one, in order.
  @Test(arguments: Arch.allCases)
  func inputsAMiddlewareFiresAreQueuedInOrder(_ arch: Arch) {
    let seen = Journal<String>()
    let firing = ClosureMiddleware<Op, Tally> { record in
      seen.append("first saw \(record.input)")
      if record.input == .note("checkout") {
        record.dispatcher.dispatch(.add(1))
        record.dispatcher.dispatch(.add(2))
        record.dispatcher.dispatch(.multiply(10))
      }
    }
    let watching = ClosureMiddleware<Op, Tally> { record in
      seen.append("second saw \(record.input) value \(record.state.value)")
    }
    let running = Running.make(arch, middlewares: [firing, watching])

    running.send(.note("checkout"))

    // Not recursive: the second middleware sees the checkout before any fired input is reduced.
    #expect(
      seen.values == [
        "first saw note(\"checkout\")", "second saw note(\"checkout\") value 0",
        "first saw add(1)", "second saw add(1) value 1",
        "first saw add(2)", "second saw add(2) value 3",
        "first saw multiply(10)", "second saw multiply(10) value 30",
      ]
    )
    #expect(running.state().value == 30)
  }

  // A pulled-back middleware dispatches its own inputs: each reaches the architecture embedded,
  // queued behind the current input, whether the pullback sits on the architecture or inside
  // another (the outer one maps the architecture's dispatcher once, the inner each record's).
  @Test(arguments: Arch.allCases)
  func aPulledBackMiddlewareDispatchesItsInputsEmbedded(_ arch: Arch) {
    let note: @Sendable (Op) -> String? = { if case .note(let text) = $0 { text } else { nil } }
    let paying = ClosureMiddleware<String, [String]> { record in
      if record.input == "checkout" { record.dispatcher.dispatch("paid") }
    }
    let refunding = ClosureMiddleware<String, [String]> { record in
      if record.input == "refund" { record.dispatcher.dispatch("refunded") }
    }
    let running = Running.make(
      arch,
      middlewares: [
        paying.pullback(state: \Tally.notes, input: note, embed: { .note($0) }),
        refunding.pullback(state: \Tally.notes, input: note, embed: { .note($0) })
          .pullback(state: \Tally.self),
      ]
    )

    running.send(.note("checkout"))
    running.send(.add(2))
    running.send(.note("refund"))

    #expect(running.state().notes == ["checkout", "paid", "refund", "refunded"])
    #expect(running.state().steps == 5)
  }

  // AT: a middleware whose work throws. The contract has no throwing call: the middleware
  // catches, reports the failure as an input (queued), and the architecture goes on.
  @Test(arguments: Arch.allCases)
  func aMiddlewareWhoseWorkThrowsReportsItAndTheArchitectureGoesOn(_ arch: Arch) {
    struct UploadFailed: Error, CustomStringConvertible {
      var value: Int
      var description: String { "upload of \(value) failed" }
    }
    @Sendable func upload(_ state: Tally) throws {
      if state.value > 10 { throw UploadFailed(value: state.value) }
    }
    let uploader = ClosureMiddleware<Op, Tally> { record in
      guard case .add = record.input else { return }
      do {
        try upload(record.state)
      } catch {
        record.dispatcher.dispatch(.note("\(error)"))
      }
    }
    let running = Running.make(arch, middlewares: [uploader])

    running.send(.add(5))
    running.send(.add(10))
    running.send(.add(1))

    #expect(running.state().value == 16)
    #expect(running.state().notes == ["upload of 15 failed", "upload of 16 failed"])
  }
}
