import AppSupport
import AppTestSupport
import CascadeFeedback
import CascadeMiddleware
import CascadeReactor
import CascadeStore
import CascadeStreams
import Foundation
import Testing

@testable import InspectorKit

/// Inspecting an app of your own goes through nothing but the libraries.
///
/// CascadeMiddleware's `RecordingMiddleware(file:recordingStates: true)` writes each input and
/// the state after it, and `cascade-inspect FILE` shows them — with `--follow`, as the app writes
/// them. On every architecture; the waits are on the steps themselves (`waitForSteps`,
/// `?beyond=N`), never on a clock.
@Suite struct OwnAppInspectionTests {
  static let inspector = builtProduct(named: "cascade-inspect")

  enum Action: Codable, Sendable, Equatable {
    case add(Int)
    case rename(String)
  }

  struct Counter: Codable, Sendable, Equatable {
    var count = 0
    var name = "counter"

    mutating func apply(_ action: Action) {
      switch action {
      case .add(let amount): count += amount
      case .rename(let name): self.name = name
      }
    }
  }

  /// A reactor whose actions are their own mutations.
  final class CounterReactor: Reactor {
    typealias Mutation = Action
    let initialState = Counter()
    let runtime = ReactorRuntime<Action, Action, Counter>()
    let recorder: RecordingMiddleware<Action, Counter>

    init(recorder: RecordingMiddleware<Action, Counter>) {
      self.recorder = recorder
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }
    var middlewares: [any Middleware<Action, Counter>] { [recorder] }

    func reduce(into state: inout Counter, mutation: Action) { state.apply(mutation) }
  }

  /// An app of one architecture, recording to `file` with its states; `send` returns once the
  /// action is processed (and so recorded).
  struct App: Sendable {
    let send: @Sendable (Action) async -> Void
    let keep: any Sendable

    init(_ architecture: Architecture, recordingTo file: URL) {
      let recorder = RecordingMiddleware<Action, Counter>(file: file, recordingStates: true)
      switch architecture {
      case .store:
        let store = Store(
          initialState: Counter(),
          middlewares: [recorder],
          reducer: { (state: inout Counter, action: Action) in state.apply(action) }
        )
        send = { action in
          store.send(action)
          await store.settle()
        }
        keep = store
      case .reactor:
        let reactor = CounterReactor(recorder: recorder)
        send = { action in
          reactor.send(action)
          await reactor.settle()
        }
        keep = reactor
      case .feedback:
        let loop = FeedbackLoop(
          initialState: Counter(),
          reduceInPlace: { (state: inout Counter, action: Action) in state.apply(action) },
          feedbacks: [],
          scheduler: ImmediateScheduler.instance,
          middlewares: [recorder]
        )
        send = { action in
          loop.send(action)
          await loop.settle()
        }
        keep = loop
      }
    }
  }

  /// The state of a step's answer, decoded.
  static func state(_ step: [String: Any]) throws -> Counter {
    let object = try #require(step["state"])
    return try JSONDecoder().decode(
      Counter.self,
      from: JSONSerialization.data(withJSONObject: object)
    )
  }

  static func json(_ data: Data?) throws -> [String: Any] {
    let data = try #require(data)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test(arguments: Architecture.allCases)
  func aRecordingWithStatesShowsEachStepsStateAndDiff(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("session.jsonl")
    let app = App(architecture, recordingTo: file)
    await app.send(.add(2))
    await app.send(.rename("clicks"))
    await app.send(.add(3))

    #expect(FollowedRecording.reads(file.path))
    let recording = try FollowedRecording(path: file.path, follow: false)
    let summary = try Self.json(recording.summary())
    // A reactor's action is a step, and so is the mutation it made (which carries the state).
    let kinds = architecture == .reactor ? ["input": 3, "mutation": 3] : ["input": 3]
    #expect(summary["steps"] as? Int == (architecture == .reactor ? 6 : 3))
    #expect(summary["kinds"] as? [String: Int] == kinds)
    #expect(summary["live"] as? Bool == true)
    #expect(summary["connected"] as? Bool == false)

    let page = try Self.json(recording.steps(from: 0, count: 100, kind: nil, search: ""))
    let steps = try #require(page["steps"] as? [[String: Any]])
    let descriptions = steps.map { $0["description"] as? String ?? "" }
    if architecture == .reactor {
      #expect(
        descriptions == [
          "add(2)", "add(2) → add(2)", #"rename("clicks")"#,
          #"rename("clicks") → rename("clicks")"#, "add(3)", "add(3) → add(3)",
        ]
      )
    } else {
      #expect(
        descriptions == [
          "add(2)", #"rename("clicks")"#, "add(3)",
        ]
      )
    }

    // The state after each step is the one recorded after it; its diff names what changed.
    let last = try Self.json(try recording.step(steps.count - 1))
    #expect(try Self.state(last) == Counter(count: 5, name: "clicks"))
    let diff = try #require(last["diff"] as? String)
    #expect(diff == "- count: 2\n+ count: 5", "\(diff)")
    let renamed = try Self.json(try recording.step(architecture == .reactor ? 3 : 1))
    #expect(try Self.state(renamed) == Counter(count: 2, name: "clicks"))
    if architecture == .reactor {
      // The action itself changes nothing: the state before it, no diff.
      let action = try Self.json(try recording.step(2))
      #expect(try Self.state(action) == Counter(count: 2, name: "counter"))
      #expect(action["diff"] is NSNull || action["diff"] == nil)
    }
    #expect(try recording.step(steps.count) == nil)
    withExtendedLifetime(app) {}
  }

  @Test(arguments: Architecture.allCases)
  func aFollowedRecordingShowsStepsAsTheAppWritesThem(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("session.jsonl")
    let app = App(architecture, recordingTo: file)
    await app.send(.add(1))
    let perAction = architecture == .reactor ? 2 : 1

    let recording = try FollowedRecording(path: file.path, follow: true)
    defer { recording.close() }
    await recording.waitForSteps(beyond: perAction - 1)
    #expect(try Self.json(recording.summary())["connected"] as? Bool == true)

    // The app goes on; the inspector sees each step as it is written.
    for (done, amount) in [2, 3, 4].enumerated() {
      await app.send(.add(amount))
      let count = (done + 2) * perAction
      await recording.waitForSteps(beyond: count - 1)
      let step = try Self.json(try recording.step(count - 1))
      #expect(try Self.state(step).count == [1, 3, 6, 10][done + 1])
    }
    recording.close()
    // Once closed, waits return at once and the summary says it ended.
    await recording.waitForSteps(beyond: 1000)
    #expect(try Self.json(recording.summary())["connected"] as? Bool == false)
    withExtendedLifetime(app) {}
  }

  /// Proves that `Inspector` answers its API without a server (`summary()`, `steps(from:count:)`,
  /// `step(_:)`) as its server does: the step count, a page of the timeline from a position, each
  /// step's recorded state, and no step past the end or before the start.
  @Test func theInspectorAnswersItsAPIWithoutAServer() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("own.jsonl")
    try Data(
      """
      {"cascadeRecording":1}
      {"input":{"add":{"_0":1}},"sequence":1,"time":0}
      {"state":{"count":1,"name":"counter"}}
      {"input":{"add":{"_0":2}},"sequence":2,"time":0}
      {"state":{"count":3,"name":"counter"}}

      """.utf8
    ).write(to: file)
    let inspector = try Inspector(recordingAt: file.path)
    #expect(try Self.json(inspector.summary())["steps"] as? Int == 2)
    let page = try Self.json(inspector.steps(from: 1, count: 10))
    #expect((page["steps"] as? [Any])?.count == 1)
    #expect(page["from"] as? Int == 1)
    #expect(try Self.state(Self.json(inspector.step(0))).count == 1)
    #expect(try Self.state(Self.json(inspector.step(1))).count == 3)
    #expect(try inspector.step(2) == nil)
    #expect(try inspector.step(-1) == nil)
  }

  @Test func aDamagedOrCutShortRecordingIsReportedWithItsLine() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let damaged = directory.file("damaged.jsonl")
    try Data(
      """
      {"cascadeRecording":1}
      {"input":{"add":{"_0":1}},"sequence":1,"time":0}
      {"state":{"count":1}}
      not json

      """.utf8
    ).write(to: damaged)
    #expect(throws: InspectorError.damaged(path: damaged.path, line: 4, reason: "it is not JSON")) {
      _ = try FollowedRecording(path: damaged.path, follow: false)
    }
    let cut = directory.file("cut.jsonl")
    try Data((#"{"cascadeRecording":1}"# + "\n" + #"{"input":{"add""#).utf8).write(to: cut)
    #expect(
      throws: InspectorError.damaged(path: cut.path, line: 2, reason: "the recording was cut short")
    ) {
      _ = try FollowedRecording(path: cut.path, follow: false)
    }
    // Followed, a last line without its newline is still being written: nothing is wrong yet.
    let followed = try FollowedRecording(path: cut.path, follow: true)
    #expect(try Self.json(followed.summary())["steps"] as? Int == 0)
    followed.close()
  }

  @Test(.enabled(if: inspector != nil, "build cascade-inspect first"))
  func cascadeInspectFollowsARunningAppsRecording() async throws {
    let executable = try #require(Self.inspector)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("session.jsonl")
    let app = App(.store, recordingTo: file)
    await app.send(.add(1))

    let child = try ServingChild(executable, ["--follow", file.path])
    let line = try #require(await child.firstLine(), "cascade-inspect printed no URL")
    let url = try #require(URLComponents(string: line))
    let port = try #require(url.port.flatMap { UInt16(exactly: $0) })
    let token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
    func get(_ path: String) throws -> [String: Any] {
      let separator = path.contains("?") ? "&" : "?"
      let answer = try loopbackRequest(port: port, path: path + separator + "token=" + token)
      #expect(answer.status == 200, "\(answer.text)")
      return try answer.json()
    }

    let summary = try get("/api/summary")
    #expect(summary["live"] as? Bool == true)
    #expect(summary["app"] as? String == "session.jsonl")
    await app.send(.add(41))
    // `?beyond=1` answers once a second step is there.
    #expect(try get("/api/summary?beyond=1")["steps"] as? Int == 2)
    #expect(try Self.state(try get("/api/step/1")) == Counter(count: 42, name: "counter"))
    let run = await child.stop()
    #expect(run.errorText.isEmpty, "\(run.errorText)")
    withExtendedLifetime(app) {}
  }

  @Test(.enabled(if: inspector != nil, "build cascade-inspect first"))
  func anAppsSessionRecordingIsNotFollowed() async throws {
    let executable = try #require(Self.inspector)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("game.jsonl")
    try Data(
      """
      {"cascadeRecording":1}
      {"input":{"session":{"app":"rpg","architecture":"store","command":"play"}},"sequence":1,"time":0}

      """.utf8
    ).write(to: file)
    let run = try await runChild(executable, ["--follow", file.path])
    #expect(run.status == ExitStatus.usage.rawValue, "\(run.summary)")
    #expect(run.errorText.contains("cannot follow \(file.path): it is a rpg session recording"))
    #expect(run.outputText.isEmpty)
  }
}
