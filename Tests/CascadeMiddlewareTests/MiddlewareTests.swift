import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct MiddlewareTests {
  // The seed's types, as a user would write them in Cascade.
  protocol Event: Sendable {}
  struct LevelUp: CoreEvent {}
  struct Rest: CoreEvent {}

  struct RPGState: Sendable {
    var level = 1

    mutating func react(to event: any CoreEvent) {
      if event is LevelUp { level += 1 }
    }
  }

  /// The seed's `LoggingMiddleware`, as written there, printing to a journal instead of stdout.
  struct LoggingMiddleware: Middleware {
    let printed: Journal<String>

    func process(event: any CoreEvent, state: RPGState) {
      switch event {
      case _ as LevelUp:
        printed.append("Leveled Up! (level \(state.level))")
      default:
        break
      }
    }
  }

  @Test func theSeedFormWorksThroughAStack() {
    let printed = Journal<String>()
    let core = MiniArchitecture<any CoreEvent, RPGState>(
      state: RPGState(),
      middlewares: [LoggingMiddleware(printed: printed)]
    ) { state, event in
      state.react(to: event)
    }

    core.send(LevelUp())
    core.send(Rest())
    core.send(LevelUp())

    #expect(printed.values == ["Leveled Up! (level 2)", "Leveled Up! (level 3)"])
  }

  @Test func theDefaultsLetEverythingThroughAndAskForNoStateBefore() {
    let middleware = LoggingMiddleware(printed: Journal())

    #expect(!middleware.wantsStateBefore)
    #expect(middleware.intercept(LevelUp(), state: RPGState()) is LevelUp)
  }

  @Test func theRecordFormTakesPrecedenceOverTheSeedForm() {
    struct Both: Middleware {
      let seen: Journal<String>
      func process(_ record: MiddlewareRecord<String, Int>) {
        seen.append("record \(record.input) #\(record.sequence)")
      }
      func process(event: String, state: Int) { seen.append("seed \(event)") }
    }
    let seen = Journal<String>()
    let stack = MiddlewareStack<String, Int>([Both(seen: seen)])

    stack.process(
      MiddlewareRecord(input: "a", state: 1, sequence: 4, time: .zero, dispatcher: .none)
    )

    #expect(seen.values == ["record a #4"])
  }

  @Test func aRecordCarriesWhatTheArchitectureGives() {
    let record = MiddlewareRecord<String, Int>(
      input: "a",
      state: 2,
      sequence: 3,
      time: SchedulerInstant(offset: .seconds(1)),
      dispatcher: .none
    )

    #expect(record.input == "a")
    #expect(record.mutation == nil)
    #expect(record.stateBefore == nil)
    #expect(record.state == 2)
    #expect(record.sequence == 3)
    #expect(record.time == SchedulerInstant(offset: .seconds(1)))
  }

  @Test func aDispatcherSendsToTheArchitecture() {
    let sent = Journal<String>()
    let dispatcher = MiddlewareDispatcher<String> { sent.append($0) }

    dispatcher.dispatch("x")
    dispatcher.dispatch("y")

    #expect(sent.values == ["x", "y"])
  }

  @Test func theNoneDispatcherDropsEverything() {
    let dispatched = Journal<String>()
    let echo = ClosureMiddleware<String, Int>(process: { record in
      record.dispatcher.dispatch("echo \(record.input)")
      dispatched.append(record.input)
    })

    echo.process(
      MiddlewareRecord(input: "a", state: 0, sequence: 1, time: .zero, dispatcher: .none)
    )

    // The middleware ran and dispatched; nothing was sent anywhere and nothing came back.
    #expect(dispatched.values == ["a"])
  }

  @Test func dispatchedInputsAreQueuedBehindTheCurrentOne() {
    let seen = Journal<String>()
    let trigger = ClosureMiddleware<String, [String]>(process: { record in
      seen.append("trigger saw \(record.input) → \(record.state)")
      if record.input == "y" { record.dispatcher.dispatch("x") }
    })
    let recorder = ClosureMiddleware<String, [String]>(process: { record in
      seen.append("recorder saw \(record.input) → \(record.state)")
    })
    let architecture = MiniArchitecture<String, [String]>(
      state: [],
      middlewares: [trigger, recorder]
    ) { state, input in
      state.append(input)
    }

    architecture.send("y")

    // `x`, dispatched while `y` was processed, is reduced only after every middleware saw `y`.
    #expect(
      seen.values == [
        "trigger saw y → [\"y\"]",
        "recorder saw y → [\"y\"]",
        "trigger saw x → [\"y\", \"x\"]",
        "recorder saw x → [\"y\", \"x\"]",
      ]
    )
  }

  @Test func aDispatcherOutlivingItsArchitectureDoesNothing() {
    let captured = Journal<MiddlewareDispatcher<String>>()
    let reduced = Journal<String>()
    var architecture: MiniArchitecture<String, Int>? = MiniArchitecture(
      state: 0,
      middlewares: [ClosureMiddleware(process: { captured.append($0.dispatcher) })]
    ) { _, input in
      reduced.append(input)
    }
    architecture?.send("a")
    architecture = nil

    captured.values.first?.dispatch("late")

    #expect(reduced.values == ["a"])
  }
}
