import AppSupport
import AppTestSupport
import Foundation
import InspectorKit
import Testing

/// Live mode, as a user runs it, against the built `todo` and `cascade-inspect`.
///
/// `todo shell --inspect` prints its endpoint on standard error, `cascade-inspect --live URL`
/// attaches to it, and the inspector's
/// API shows every step as the app processes it, with the state after it and its diff; "replay
/// to here" brings a fresh service to a step with no effect (the database is left as the live
/// session made it); the endpoint answers only its token and its host; and the app's end is
/// shown. Every wait is on the steps themselves (`/api/summary?beyond=N` answers when there are
/// more than N), never on a clock.
@Suite struct InspectorLiveTests {
  static let todo = builtProduct(named: "todo")
  static let rpg = builtProduct(named: "rpg")
  static let movies = builtProduct(named: "movies")
  static let inspector = builtProduct(named: "cascade-inspect")

  /// A running app started with `--inspect`, its standard input, and its endpoint.
  struct LiveApp {
    let child: ServingChild
    let input: Pipe
    let endpoint: URL

    func type(_ lines: String) {
      input.fileHandleForWriting.write(Data(lines.utf8))
    }

    /// Ends standard input: the shell ends, and the app with it.
    func endInput() throws {
      try input.fileHandleForWriting.close()
    }
  }

  static func startTodo(_ architecture: Architecture, database: URL) async throws -> LiveApp {
    try await start(
      try #require(Self.todo, "build the todo product first"),
      named: "todo",
      ["shell", "--db", database.path, "--architecture", architecture.rawValue, "--inspect"]
    )
  }

  /// Starts `executable` (the app `name`) with `arguments`, which include `--inspect`, and
  /// waits for the endpoint it prints.
  static func start(
    _ executable: URL,
    named name: String,
    _ arguments: [String]
  ) async throws
    -> LiveApp
  {
    let input = Pipe()
    let child = try ServingChild(
      executable,
      arguments,
      input: input.fileHandleForReading,
      announcesOn: .error
    )
    let line = await child.firstLine()
    let announced = try #require(line, "\(name) printed no endpoint")
    let prefix = "\(name): inspect with: cascade-inspect --live "
    #expect(announced.hasPrefix(prefix), "\(announced)")
    let endpoint = try #require(URL(string: String(announced.dropFirst(prefix.count))))
    #expect(endpoint.scheme == "ws")
    #expect(endpoint.host == "127.0.0.1")
    #expect(endpoint.path == "/live")
    return LiveApp(child: child, input: input, endpoint: endpoint)
  }

  /// A running `cascade-inspect --live URL`, and its port and token.
  struct LiveInspector {
    let child: ServingChild
    let port: UInt16
    let token: String

    func get(_ path: String) throws -> HTTPAnswer {
      let separator = path.contains("?") ? "&" : "?"
      return try loopbackRequest(port: port, path: path + separator + "token=" + token)
    }

    /// `POST path` with the token in its header, as the page posts.
    func post(_ path: String) throws -> HTTPAnswer {
      try loopbackRequest(
        port: port,
        path: path,
        method: "POST",
        headers: ["X-Cascade-Token": token]
      )
    }

    /// The summary once there are more than `count` steps, or the app is gone.
    func summary(beyond count: Int) throws -> [String: Any] {
      try get("/api/summary?beyond=\(count)").json()
    }

    /// The state after step `index`.
    func state(after index: Int) throws -> [String: Any] {
      let answer = try get("/api/step/\(index)")
      #expect(answer.status == 200, "\(answer.text)")
      return try #require(try answer.json()["state"] as? [String: Any])
    }

    /// Waits, step by step, for a state after which `done` holds, and returns its index and
    /// the state; `nil` if the app ends first.
    func waitForState(
      _ done: ([String: Any]) -> Bool
    ) throws -> (index: Int, state: [String: Any])? {
      try waitForStep { _, state in done(state) }.map { ($0.index, $0.state) }
    }

    /// Waits, step by step, for a step (its timeline line and the state after it) for which
    /// `done` holds; `nil` if the app ends first.
    func waitForStep(
      _ done: ([String: Any], [String: Any]) -> Bool
    ) throws -> (index: Int, line: [String: Any], state: [String: Any])? {
      var seen = 0
      while true {
        let summary = try summary(beyond: seen)
        let steps = try #require(summary["steps"] as? Int)
        let page = try get("/api/steps?from=\(seen)&count=\(steps - seen)").json()
        let lines = try #require(page["steps"] as? [[String: Any]])
        for (offset, line) in lines.enumerated() {
          let state = try state(after: seen + offset)
          if done(line, state) { return (seen + offset, line, state) }
        }
        if steps == seen { return nil }  // no more steps came: the app is gone
        seen = steps
      }
    }
  }

  static func attach(to endpoint: URL) async throws -> LiveInspector {
    let executable = try #require(inspector, "build the cascade-inspect product first")
    let child = try ServingChild(executable, ["--live", endpoint.absoluteString])
    let line = await child.firstLine()
    let printed = try #require(line, "cascade-inspect printed no URL")
    let url = try #require(URL(string: printed))
    let token = try #require(
      URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
        .first { $0.name == "token" }?.value
    )
    let port = try #require(url.port.flatMap { UInt16(exactly: $0) })
    return LiveInspector(child: child, port: port, token: token)
  }

  static func titles(_ state: [String: Any]) -> [String] {
    ((state["tasks"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
  }

  static func isIdle(_ state: [String: Any]) -> Bool {
    ((state["pendingWrites"] as? [Any]) ?? [1]).isEmpty
  }

  @Test(arguments: Architecture.allCases)
  func stepsArriveAsTheAppProcessesThemAndReplayRunsNoEffect(
    _ architecture: Architecture
  ) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = directory.file("todo.sqlite")
    let app = try await Self.startTodo(architecture, database: database)
    // Typed before the inspector attaches: it is sent every step so far first.
    app.type("add Buy milk\n")
    let inspector = try await Self.attach(to: app.endpoint)

    let first = try #require(
      try inspector.waitForState { Self.titles($0) == ["Buy milk"] && Self.isIdle($0) },
      "the first task's write never showed"
    )
    let summary = try inspector.summary(beyond: 0)
    #expect(summary["app"] as? String == "todo")
    #expect(summary["architecture"] as? String == architecture.rawValue)
    #expect(summary["command"] as? String == "shell")
    #expect(summary["live"] as? Bool == true)
    #expect(summary["connected"] as? Bool == true)
    #expect(summary["path"] as? String == "ws://127.0.0.1:\(app.endpoint.port ?? 0)/live")

    app.type("add Walk\ntoggle 1\n")
    let last = try #require(
      try inspector.waitForState { state in
        let tasks = (state["tasks"] as? [[String: Any]]) ?? []
        return Self.titles(state) == ["Buy milk", "Walk"]
          && tasks.first?["done"] as? Bool == true && Self.isIdle(state)
      },
      "the toggle's write never showed"
    )
    // The step that made the last state says what it did, and is a write's outcome.
    let detail = try inspector.get("/api/step/\(last.index)").json()
    let step = try #require(detail["step"] as? [String: Any])
    #expect(step["index"] as? Int == last.index)
    #expect(step["source"] as? String == "effect")
    #expect((step["description"] as? String)?.contains("written") == true)
    let timeline = try inspector.get("/api/steps?from=0&count=100").json()
    let lines = try #require(timeline["steps"] as? [[String: Any]])
    #expect(lines.count == last.index + 1 || lines.count > last.index)
    #expect(lines.contains { $0["source"] as? String == "user" })
    #expect(lines.contains { ($0["description"] as? String)?.contains("Walk") == true })
    // The diff of the toggle's step names the field it changed.
    let toggled = try #require(
      lines.firstIndex { ($0["description"] as? String)?.contains("toggle") == true }
    )
    let toggleDetail = try inspector.get("/api/step/\(toggled)").json()
    #expect((toggleDetail["diff"] as? String)?.contains("done") == true)

    // Replay to the first task's write: a fresh service reaches the recorded state.
    let refused = try loopbackRequest(
      port: inspector.port,
      path: "/api/replay/\(first.index)?token=\(inspector.token)",
      method: "POST"
    )
    #expect(refused.status == 403, "a replay without the token header: \(refused.text)")
    let replayed = try loopbackRequest(
      port: inspector.port,
      path: "/api/replay/\(first.index)",
      method: "POST",
      headers: ["X-Cascade-Token": inspector.token]
    )
    #expect(replayed.status == 200, "\(replayed.text)")
    let replay = try replayed.json()
    let outcome = try #require(replay["replayed"] as? [String: Any], "\(replayed.text)")
    #expect(outcome["matches"] as? Bool == true, "\(replayed.text)")
    #expect(outcome["steps"] as? Int == first.index + 1)
    let replayedState = try #require(replay["state"] as? [String: Any])
    #expect(Self.titles(replayedState) == ["Buy milk"])

    // The shell's end ends the app; the inspector says so, and keeps the steps.
    let steps = try #require(try inspector.summary(beyond: 0)["steps"] as? Int)
    try app.endInput()
    var ended = try inspector.summary(beyond: steps)
    while ended["connected"] as? Bool == true {
      ended = try inspector.summary(beyond: try #require(ended["steps"] as? Int))
    }
    #expect(ended["connected"] as? Bool == false)
    #expect(ended["ended"] is String)
    #expect(try Self.titles(inspector.state(after: last.index)) == ["Buy milk", "Walk"])
    // The session exported: a recording with states that the inspector opens again, its last
    // state the live one's.
    let export = try inspector.get("/api/export")
    #expect(export.status == 200)
    let exported = FileManager.default.temporaryDirectory
      .appendingPathComponent("export-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: exported) }
    try export.body.write(to: exported)
    let reopened = try Inspector(recordingAt: exported.path)
    let reopenedSummary = try #require(
      try JSONSerialization.jsonObject(with: reopened.summary()) as? [String: Any]
    )
    let exportedSteps = try #require(reopenedSummary["steps"] as? Int)
    #expect(exportedSteps == steps || exportedSteps > steps)
    let lastExported = try #require(try reopened.step(exportedSteps - 1))
    let lastState = try #require(
      (try JSONSerialization.jsonObject(with: lastExported) as? [String: Any])?["state"]
        as? [String: Any]
    )
    #expect(Self.titles(lastState) == ["Buy milk", "Walk"])
    let appRun = await app.child.stop(signal: nil)
    #expect(appRun.status == 0, "todo: \(appRun.summary)")
    let inspectorRun = await inspector.child.stop()
    #expect(inspectorRun.status == 0, "cascade-inspect: \(inspectorRun.summary)")

    // The replay wrote nothing: the database holds the two tasks the live session added.
    let todo = try #require(Self.todo)
    let list = try await runChild(todo, ["list", "--json", "--db", database.path])
    #expect(list.succeeded, "\(list.summary)")
    let listed = try JSONSerialization.jsonObject(with: list.output) as? [[String: Any]]
    #expect(listed?.compactMap { $0["title"] as? String } == ["Buy milk", "Walk"])
  }

  /// The RPG on every architecture: its steps arrive with their sources (a save's outcome is an
  /// effect's), and a replay to the save's step reaches the recorded state without saving.
  @Test(arguments: Architecture.allCases)
  func theGameStreamsItsStepsAndReplaysToTheSave(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let save = directory.file("save.json")
    let app = try await Self.start(
      try #require(Self.rpg, "build the rpg product first"),
      named: "rpg",
      ["play", "--save", save.path, "--architecture", architecture.rawValue, "--inspect"]
    )
    let inspector = try await Self.attach(to: app.endpoint)
    app.type("new Ada 42\nexplore\nattack\nsave\n")
    let saved = try #require(
      try inspector.waitForStep { line, _ in line["source"] as? String == "effect" },
      "the save's outcome never showed"
    )
    #expect((saved.line["description"] as? String)?.contains("saved") == true, "\(saved.line)")
    #expect(FileManager.default.fileExists(atPath: save.path))
    let savedBytes = try Data(contentsOf: save)
    try FileManager.default.removeItem(at: save)

    let replayed = try loopbackRequest(
      port: inspector.port,
      path: "/api/replay/\(saved.index)",
      method: "POST",
      headers: ["X-Cascade-Token": inspector.token]
    )
    let outcome = try #require(try replayed.json()["replayed"] as? [String: Any])
    #expect(outcome["matches"] as? Bool == true, "\(replayed.text)")
    // The replay reached the save's step without saving again.
    #expect(!FileManager.default.fileExists(atPath: save.path))
    #expect(!savedBytes.isEmpty)

    try app.endInput()
    let appRun = await app.child.stop(signal: nil)
    #expect(appRun.status == 0, "rpg: \(appRun.summary)")
    let inspectorRun = await inspector.child.stop()
    #expect(inspectorRun.status == 0, "cascade-inspect: \(inspectorRun.summary)")
  }

  /// The trace of a live app (`/api/trace`), of the inputs since the inspector asked to time it
  /// (`POST /api/timing`, with the token): Chrome's trace event format, each input a slice
  /// named as its step with its phases inside it, and the save an effect that began before its
  /// outcome was received — on every architecture.
  @Test(arguments: Architecture.allCases)
  func theGamesTraceShowsEachInputsPhasesAndTheSaveAsAnEffect(
    _ architecture: Architecture
  ) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let app = try await Self.start(
      try #require(Self.rpg, "build the rpg product first"),
      named: "rpg",
      [
        "play", "--save", directory.file("save.json").path, "--architecture",
        architecture.rawValue, "--inspect",
      ]
    )
    let inspector = try await Self.attach(to: app.endpoint)
    // The app is timed only once a client asks: before, its inputs cost it no clock reading.
    #expect(try inspector.get("/api/timing").json()["asked"] as? Bool == false)
    app.type("new Ada 42\n")
    let untimed = try #require(try inspector.waitForStep { line, _ in line["index"] as? Int == 0 })
    let before = try inspector.get("/api/trace?last=1000").json()["traceEvents"] as? [[String: Any]]
    #expect(
      before?.contains { $0["cat"] as? String == "input" } == false,
      "no input timed before the ask: \(before ?? [])"
    )
    #expect(
      try loopbackRequest(port: inspector.port, path: "/api/timing?on=true", method: "POST")
        .status == 403,
      "asking without the token header"
    )
    #expect(try inspector.post("/api/timing?on=maybe").status == 400)
    let asked = try inspector.post("/api/timing?on=true")
    #expect(asked.status == 200, "\(asked.text)")
    #expect(try asked.json()["asked"] as? Bool == true, "\(asked.text)")
    #expect(try asked.json()["timed"] as? Bool == true, "\(asked.text)")
    #expect(try inspector.get("/api/timing").json()["asked"] as? Bool == true)
    app.type("explore\nattack\nsave\n")
    let saved = try #require(
      try inspector.waitForStep { line, _ in line["source"] as? String == "effect" },
      "the save's outcome never showed"
    )
    let answer = try inspector.get("/api/trace?last=1000")
    #expect(answer.status == 200, "\(answer.text)")
    let events = try #require(try answer.json()["traceEvents"] as? [[String: Any]])
    let process = events.first { $0["name"] as? String == "process_name" }
    #expect(
      (process?["args"] as? [String: Any])?["name"] as? String == "rpg · \(architecture)"
    )
    let inputs = events.filter { $0["cat"] as? String == "input" }
    let outcome = try #require(
      inputs.first { $0["name"] as? String == saved.line["description"] as? String },
      "the save's outcome is a slice named as its step: \(inputs.map { $0["name"] ?? "" })"
    )
    // The inputs since the ask (at least the three typed after it), and none before it.
    #expect(inputs.count >= 3, "\(inputs.map { $0["name"] ?? "" })")
    #expect(!inputs.contains { $0["name"] as? String == untimed.line["description"] as? String })
    for input in inputs {
      let start = try #require(input["ts"] as? Double)
      let end = start + (try #require(input["dur"] as? Double))
      let phases = events.filter {
        $0["ph"] as? String == "X" && $0["cat"] == nil
          && $0["tid"] as? Int == input["tid"] as? Int
          && ($0["ts"] as? Double ?? -1) >= start && ($0["ts"] as? Double ?? -1) < end
      }
      #expect(phases.contains { $0["name"] as? String == "reduce" }, "\(input)")
      for phase in phases {
        let phaseEnd = (phase["ts"] as? Double ?? 0) + (phase["dur"] as? Double ?? 0)
        #expect(phaseEnd <= end + 0.001, "\(phase) within \(input)")
      }
    }
    let saves = events.filter { $0["ph"] as? String == "b" }
    let outcomeStart = try #require(outcome["ts"] as? Double)
    #expect(
      saves.contains { ($0["ts"] as? Double ?? .infinity) < outcomeStart },
      "an effect began before the save's outcome: \(saves)"
    )
    #expect(try inspector.get("/api/trace?last=0").status == 400)
    #expect(try inspector.get("/api/trace?last=many").status == 400)

    try app.endInput()
    let appRun = await app.child.stop(signal: nil)
    #expect(appRun.status == 0, "rpg: \(appRun.summary)")
    _ = await inspector.child.stop()
  }

  /// The movie list on every architecture, on its embedded server: a page's arrival is an
  /// effect's step, and a replay to it reaches the same list with no request.
  @Test(arguments: Architecture.allCases)
  func theMovieListStreamsItsPages(_ architecture: Architecture) async throws {
    let app = try await Self.start(
      try #require(Self.movies, "build the movies product first"),
      named: "movies",
      ["browse", "--architecture", architecture.rawValue, "--inspect"]
    )
    let inspector = try await Self.attach(to: app.endpoint)
    let page = try #require(
      try inspector.waitForStep { line, state in
        line["source"] as? String == "effect" && !((state["movies"] as? [Any]) ?? []).isEmpty
      },
      "no page arrived"
    )
    let requests = page.state["requestCount"] as? Int
    let replayed = try loopbackRequest(
      port: inspector.port,
      path: "/api/replay/\(page.index)",
      method: "POST",
      headers: ["X-Cascade-Token": inspector.token]
    )
    let answer = try replayed.json()
    let outcome = try #require(answer["replayed"] as? [String: Any])
    #expect(outcome["matches"] as? Bool == true, "\(replayed.text)")
    let state = try #require(answer["state"] as? [String: Any])
    #expect(state["requestCount"] as? Int == requests)
    #expect((state["movies"] as? [Any])?.count == (page.state["movies"] as? [Any])?.count)
    app.type("q\n")
    try app.endInput()
    let appRun = await app.child.stop(signal: nil)
    #expect(appRun.status == 0, "movies: \(appRun.summary)")
    let inspectorRun = await inspector.child.stop()
    #expect(inspectorRun.status == 0, "cascade-inspect: \(inspectorRun.summary)")
  }

  @Test func theEndpointAnswersOnlyItsTokenAndHost() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let app = try await Self.startTodo(.store, database: directory.file("todo.sqlite"))
    let port = try #require(app.endpoint.port.flatMap { UInt16(exactly: $0) })
    let token = try #require(
      URLComponents(url: app.endpoint, resolvingAgainstBaseURL: false)?.queryItems?
        .first { $0.name == "token" }?.value
    )
    #expect(try loopbackRequest(port: port, path: "/live").status == 403)
    #expect(try loopbackRequest(port: port, path: "/live?token=wrong").status == 403)
    #expect(
      try loopbackRequest(port: port, path: "/live?token=\(token)", host: "evil.example:\(port)")
        .status == 421
    )
    #expect(
      try loopbackRequest(port: port, path: "/live?token=\(token)", method: "POST").status == 405
    )
    #expect(try loopbackRequest(port: port, path: "/other?token=\(token)").status == 404)
    // An inspector given a wrong token is refused, says so, and ends with 75.
    let executable = try #require(Self.inspector)
    var wrong = URLComponents(url: app.endpoint, resolvingAgainstBaseURL: false)
    wrong?.queryItems = [URLQueryItem(name: "token", value: "wrong")]
    let refused = try await runChild(executable, ["--live", try #require(wrong?.string)])
    #expect(refused.status == ExitStatus.temporaryFailure.rawValue, "\(refused.summary)")
    #expect(String(decoding: refused.errors, as: UTF8.self).contains("cannot inspect"))
    try app.endInput()
    let run = await app.child.stop(signal: nil)
    #expect(run.status == 0, "todo: \(run.summary)")
  }
}
