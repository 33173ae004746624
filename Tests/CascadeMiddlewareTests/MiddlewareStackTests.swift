import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct MiddlewareStackTests {
  /// Appends its mark to every input it intercepts and records what it sees.
  struct Marking: Middleware {
    let mark: String
    let seen: Journal<String>
    var wantsStateBefore = false

    func intercept(_ input: String, state: Int) -> String? {
      seen.append("\(mark) intercepts \(input) at \(state)")
      return input + mark
    }

    func process(_ record: MiddlewareRecord<String, Int>) {
      seen.append("\(mark) processes \(record.input) at \(record.state)")
    }
  }

  struct Blocking: Middleware {
    func intercept(_ input: String, state: Int) -> String? {
      input.hasPrefix("block") ? nil : input
    }
  }

  func record(_ input: String, state: Int) -> MiddlewareRecord<String, Int> {
    MiddlewareRecord(input: input, state: state, sequence: 1, time: .zero, dispatcher: .none)
  }

  @Test func interceptsInDeclarationOrderEachSeeingThePreviousResult() {
    let seen = Journal<String>()
    let stack = MiddlewareStack<String, Int>([
      Marking(mark: "1", seen: seen),
      Marking(mark: "2", seen: seen),
    ])

    #expect(stack.intercept("a", state: 5) == "a12")
    #expect(seen.values == ["1 intercepts a at 5", "2 intercepts a1 at 5"])
  }

  @Test func aBlockedInputGoesNoFurther() {
    let seen = Journal<String>()
    let stack = MiddlewareStack<String, Int>([
      Marking(mark: "1", seen: seen),
      Blocking(),
      Marking(mark: "2", seen: seen),
    ])

    #expect(stack.intercept("block", state: 0) == nil)
    #expect(stack.intercept("go", state: 0) == "go12")
    #expect(
      seen.values == ["1 intercepts block at 0", "1 intercepts go at 0", "2 intercepts go1 at 0"]
    )
  }

  @Test func processesInDeclarationOrder() {
    let seen = Journal<String>()
    let stack = MiddlewareStack<String, Int>([
      Marking(mark: "1", seen: seen),
      Marking(mark: "2", seen: seen),
    ])

    stack.process(record("a", state: 1))

    #expect(seen.values == ["1 processes a at 1", "2 processes a at 1"])
  }

  @Test func anInterceptorSeesTheStateBeforeAndAProcessorTheStateAfter() {
    let seen = Journal<String>()
    let architecture = MiniArchitecture<String, Int>(
      state: 0,
      middlewares: [Marking(mark: "!", seen: seen)]
    ) { state, _ in
      state += 1
    }

    architecture.send("a")
    architecture.send("b")

    #expect(
      seen.values == [
        "! intercepts a at 0", "! processes a! at 1",
        "! intercepts b at 1", "! processes b! at 2",
      ]
    )
  }

  @Test func wantsTheStateBeforeIfAnyMiddlewareDoes() {
    let seen = Journal<String>()
    let plain = Marking(mark: "1", seen: seen)
    let wanting = Marking(mark: "2", seen: seen, wantsStateBefore: true)

    #expect(!MiddlewareStack<String, Int>().wantsStateBefore)
    #expect(!MiddlewareStack<String, Int>([plain, plain]).wantsStateBefore)
    #expect(MiddlewareStack<String, Int>([plain, wanting]).wantsStateBefore)
  }

  @Test func theStateBeforeReachesMiddlewaresWhenOneAsks() {
    let befores = Journal<Int?>()
    let wanting = ClosureMiddleware<String, Int>(wantsStateBefore: true) { _ in }
    let reader = ClosureMiddleware<String, Int>(process: { befores.append($0.stateBefore) })
    let architecture = MiniArchitecture<String, Int>(
      state: 10,
      middlewares: [reader, wanting]
    ) { state, _ in
      state += 1
    }

    architecture.send("a")
    architecture.send("b")

    #expect(befores.values == [10, 11])
  }

  @Test func isEmptyWithoutMiddlewares() {
    #expect(MiddlewareStack<String, Int>().isEmpty)
    #expect(MiddlewareStack<String, Int>().middlewares.isEmpty)
    #expect(!MiddlewareStack<String, Int>([Blocking()]).isEmpty)
  }

  @Test func anEmptyStackLetsEverythingThrough() {
    let stack = MiddlewareStack<String, Int>()

    #expect(stack.intercept("block", state: 0) == "block")
    stack.process(record("a", state: 1))
  }

  // A middleware that says it only observes is never asked to intercept (the engine skips the
  // call per input); it still processes every input, and the others still intercept.
  @Test func observersAreNotAskedToIntercept() {
    struct Observer: Middleware {
      let seen: Journal<String>
      var interceptsInputs: Bool { false }

      func intercept(_ input: String, state: Int) -> String? {
        seen.append("asked to intercept \(input)")
        return nil
      }

      func process(_ record: MiddlewareRecord<String, Int>) {
        seen.append("processes \(record.input)")
      }
    }
    let seen = Journal<String>()
    let stack = MiddlewareStack<String, Int>([
      Observer(seen: seen), Marking(mark: "+", seen: seen),
    ])
    #expect(stack.interceptsInputs)
    #expect(stack.intercept("a", state: 0) == "a+")
    stack.process(record("a+", state: 1))
    #expect(seen.values == ["+ intercepts a at 0", "processes a+", "+ processes a+ at 1"])
    #expect(!MiddlewareStack<String, Int>([Observer(seen: seen)]).interceptsInputs)
    #expect(!ClosureMiddleware<String, Int>(process: { _ in }).interceptsInputs)
  }
}
