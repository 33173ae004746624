import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Logging
import Testing

@Suite(.checksResources)
struct LoggingMiddlewareTests {
  struct Login: Sendable {
    var user: String
    var password: String
  }

  struct Session: Sendable {
    var user: String
    var token: String
  }

  enum Mutation: Sendable {
    case setCount(Int)
  }

  func record<Input, State>(
    _ input: Input,
    state: State,
    mutation: (any Sendable)? = nil,
    sequence: UInt64 = 1,
    at offset: Duration = .zero
  ) -> MiddlewareRecord<Input, State> {
    MiddlewareRecord(
      input: input,
      mutation: mutation,
      state: state,
      sequence: sequence,
      time: SchedulerInstant(offset: offset),
      dispatcher: .none
    )
  }

  @Test func writesOneCompactLinePerInput() {
    let logs = CapturedLogs()
    let logging = LoggingMiddleware<String, Int>(logger: logs.logger(level: .info))

    logging.process(record("increment", state: 1, sequence: 1, at: .zero))
    logging.process(record("increment", state: 2, sequence: 2, at: .milliseconds(1500)))
    logging.process(record("reset", state: 0, sequence: 10, at: .seconds(62) + .microseconds(7)))

    #expect(
      logs.messages == [
        "#1 0.000s increment",
        "#2 1.500s increment",
        "#10 62.000s reset",
      ]
    )
    #expect(logs.entries.allSatisfy { $0.level == .info })
  }

  @Test func attachesSequenceAndTimeAsMetadata() {
    let logs = CapturedLogs()
    var logger = logs.logger(level: .info)
    logger[metadataKey: "feature"] = "counter"
    let logging = LoggingMiddleware<String, Int>(logger: logger)

    logging.process(record("increment", state: 1, sequence: 7, at: .milliseconds(250)))

    #expect(
      logs.entries.map(\.metadata) == [["feature": "counter", "sequence": "7", "time": "0.250s"]]
    )
  }

  @Test func showsTheStateWhenTheLoggerAdmitsTheStateLevel() {
    let debugLogs = CapturedLogs()
    let infoLogs = CapturedLogs()
    for (logs, level) in [(debugLogs, Logger.Level.debug), (infoLogs, .info)] {
      let logging = LoggingMiddleware<String, Int>(logger: logs.logger(level: level), state: .full)
      logging.process(record("increment", state: 3))
    }

    #expect(debugLogs.messages == ["#1 0.000s increment → 3"])
    #expect(infoLogs.messages == ["#1 0.000s increment"])
  }

  @Test func summarizesTheStateWithTheGivenClosure() {
    let logs = CapturedLogs()
    let logging = LoggingMiddleware<String, [String]>(
      logger: logs.logger(),
      state: .summary { "\($0.count) items" }
    )

    logging.process(record("add", state: ["milk", "eggs"]))

    #expect(logs.messages == ["#1 0.000s add → 2 items"])
  }

  @Test func showsTheMutationWhenPresent() {
    let logs = CapturedLogs()
    let logging = LoggingMiddleware<String, Int>(logger: logs.logger(), state: .full)

    logging.process(record("increment", state: 2, mutation: Mutation.setCount(2)))
    logging.process(record("noop", state: 2, sequence: 2))

    #expect(
      logs.messages == [
        "#1 0.000s increment [setCount(2)] → 2",
        "#2 0.000s noop → 2",
      ]
    )
  }

  @Test func redactionKeepsSensitiveFieldsOutOfTheLog() {
    let logs = CapturedLogs()
    let logging = LoggingMiddleware<Login, Session>(
      logger: logs.logger(),
      state: .full,
      redact: { "login(user: \($0.user), password: ***)" },
      redactState: { "signedIn(\($0.user))" },
      redactMutation: { _ in "<mutation>" }
    )

    logging.process(
      record(
        Login(user: "ada", password: "hunter2"),
        state: Session(user: "ada", token: "tok-secret"),
        mutation: Session(user: "ada", token: "tok-secret")
      )
    )

    #expect(
      logs.messages == ["#1 0.000s login(user: ada, password: ***) [<mutation>] → signedIn(ada)"]
    )
    let everything = logs.entries.map { "\($0.message) \($0.metadata)" }.joined()
    #expect(!everything.contains("hunter2"))
    #expect(!everything.contains("tok-secret"))
  }

  @Test func logsTheDescriptionByDefault() {
    let logs = CapturedLogs()
    let logging = LoggingMiddleware<Login, Int>(logger: logs.logger(), state: .full)

    logging.process(record(Login(user: "ada", password: "pw"), state: 1))

    #expect(
      logs.messages == [#"#1 0.000s Login(user: "ada", password: "pw") → 1"#]
    )
  }

  @Test func disabledLoggingCallsNoHookAndWritesNothing() {
    let logs = CapturedLogs()
    let calls = Journal<String>()
    let logging = LoggingMiddleware<String, Int>(
      logger: logs.logger(level: .warning),
      state: .summary { state in
        calls.append("summary")
        return "\(state)"
      },
      redact: { input in
        calls.append("redact")
        return input
      },
      redactMutation: { mutation in
        calls.append("mutation")
        return "\(mutation)"
      }
    )

    logging.process(record("increment", state: 1, mutation: Mutation.setCount(1)))

    #expect(logs.entries.isEmpty)
    #expect(calls.values.isEmpty)
  }

  @Test func aDisabledStateLevelSkipsTheStateHook() {
    let logs = CapturedLogs()
    let calls = Journal<String>()
    let logging = LoggingMiddleware<String, Int>(
      logger: logs.logger(level: .info),
      state: .full,
      redact: { input in
        calls.append("redact")
        return input
      },
      redactState: { state in
        calls.append("state")
        return "\(state)"
      }
    )

    logging.process(record("increment", state: 1))

    #expect(logs.messages == ["#1 0.000s increment"])
    #expect(calls.values == ["redact"])
  }

  @Test func theStateNeverLogsWithoutItsInput() {
    let logs = CapturedLogs()
    let calls = Journal<String>()
    // Inputs at debug, state at info, logger at info: the input's line is off, so is the state.
    let logging = LoggingMiddleware<String, Int>(
      logger: logs.logger(level: .info),
      level: .debug,
      state: .full,
      stateLevel: .info,
      redactState: { state in
        calls.append("state")
        return "\(state)"
      }
    )

    logging.process(record("increment", state: 1))

    #expect(logs.entries.isEmpty)
    #expect(calls.values.isEmpty)
  }

  @Test func writesAtTheConfiguredLevel() {
    let logs = CapturedLogs()
    let logging = LoggingMiddleware<String, Int>(logger: logs.logger(level: .notice), level: .error)

    logging.process(record("crash", state: 0))

    #expect(logs.entries.map(\.level) == [.error])
  }

  @Test func defaultsToACascadeLoggerAtInfoWithoutState() {
    let logging = LoggingMiddleware<String, Int>()

    #expect(logging.logger.label == "cascade")
    #expect(logging.level == .info)
    #expect(logging.stateLevel == .debug)
    #expect(!logging.wantsStateBefore)
    guard case .none = logging.stateLogging else {
      Issue.record("state logging is on by default")
      return
    }
  }

  @Test func logsEachInputAnArchitectureReduces() {
    let logs = CapturedLogs()
    let scheduler = TestScheduler()
    let counter = MiniArchitecture<String, Int>(
      state: 0,
      middlewares: [LoggingMiddleware(logger: logs.logger(), state: .full)],
      mutation: { $0 == "increment" ? Mutation.setCount(1) : nil },
      now: { scheduler.now },
      reduce: { state, input in
        if input == "increment" { state += 1 }
      }
    )

    counter.send("increment")
    scheduler.advance(by: .milliseconds(250))
    counter.send("noop")

    #expect(
      logs.messages == [
        "#1 0.000s increment [setCount(1)] → 1",
        "#2 0.250s noop → 1",
      ]
    )
  }
}
