import AppSupport
import AppTestSupport
import Foundation
import MoviesCore
import Testing
import TodoCore

/// `cascade-inspect FILE` on the other apps' recordings, as a user makes them.
///
/// A `todo shell` session (which starts from the list the database held) and a `movies list`
/// over HTTP, with failed requests retried, or ended by a failure. The timeline marks the writes'
/// and the pages' outcomes as effects, the first step's state is the list the session started
/// from, and the last step's state is the one the app's own replay of the recording reaches — on
/// every architecture.
@Suite struct InspectorAppRecordingsTests {
  static let todo = builtProduct(named: "todo")
  static let movies = builtProduct(named: "movies")
  static let inspector = InspectorExecutableTests.inspector

  /// The state after step `index`, as the API answers it.
  static func state(_ served: InspectorExecutableTests.Served, after index: Int) throws -> Any {
    let answer = try served.get("/api/step/\(index)")
    #expect(answer.status == 200, "\(answer.text)")
    return try #require(try answer.json()["state"])
  }

  /// `state` encoded as the inspector encodes states, in the canonical form of ``canonical(_:)``.
  static func json(_ state: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try canonical(JSONSerialization.jsonObject(with: encoder.encode(state)))
  }

  /// A JSON value as text with sorted keys: two values are the same if their texts are.
  static func canonical(_ value: Any) throws -> String {
    String(
      decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]),
      as: UTF8.self
    )
  }

  /// Every step of the timeline.
  static func timeline(_ served: InspectorExecutableTests.Served) throws -> [[String: Any]] {
    let page = try served.get("/api/steps?from=0&count=1000").json()
    return try #require(page["steps"] as? [[String: Any]])
  }

  /// Proves that a todo session's recording is inspected: its first step starts from the list
  /// the database held (the session's header), its writes' outcomes are effects, and its last
  /// state is the replay's and the database's.
  @Test(
    .enabled(if: inspector != nil && todo != nil, "build cascade-inspect and todo first"),
    arguments: Architecture.allCases
  )
  func aTodoSessionIsInspected(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let todo = try #require(Self.todo)
    let database = directory.file("todo.sqlite").path
    let options = ["--db", database, "--architecture", architecture.rawValue]
    let seeded = try await runChild(todo, options + ["add", "Old task"])
    #expect(seeded.succeeded, "\(seeded.summary)")
    let recording = directory.file("todo.jsonl")
    let session = try await runChild(
      todo,
      options + ["--record", recording.path, "shell"],
      input: .text("add \"Buy milk\"\nadd Walk\ndone 2\n")
    )
    #expect(session.succeeded, "\(session.summary)")

    let served = try await InspectorExecutableTests.serve(recording)
    defer { Task { await served.child.stop() } }
    let summary = try served.get("/api/summary").json()
    #expect(summary["app"] as? String == "todo")
    #expect(summary["architecture"] as? String == architecture.rawValue)
    #expect(summary["command"] as? String == "shell")
    let steps = try Self.timeline(served)
    #expect(steps.count == summary["steps"] as? Int)

    // The session started from the list the database held.
    let first = try #require(try Self.state(served, after: 0) as? [String: Any])
    #expect(InspectorLiveTests.titles(first) == ["Old task"])

    // Four database operations, each finished by an effect: two additions, the reload that
    // `done` makes first, and the change.
    let effects = steps.filter { $0["source"] as? String == "effect" }
    #expect(effects.count == 4, "\(effects)")
    #expect(effects.allSatisfy { $0["kind"] as? String != "intent" })

    // The last state is the one the app's own replay reaches, and the database's.
    let replay = try replayTodoSession(architecture, contentsOf: recording, command: "shell")
    _ = try await replay.replayRecording()
    let last = try Self.state(served, after: steps.count - 1)
    let replayed = try Self.json(replay.service.currentState)
    #expect(try Self.canonical(last) == replayed)
    let lastState = try #require(last as? [String: Any])
    #expect(InspectorLiveTests.titles(lastState) == ["Old task", "Buy milk", "Walk"])
    let list = try await runChild(todo, ["list", "--json", "--db", database])
    let listed = try JSONSerialization.jsonObject(with: list.output) as? [[String: Any]]
    #expect(listed?.compactMap { $0["title"] as? String } == InspectorLiveTests.titles(lastState))
    #expect(listed?.compactMap { $0["done"] as? Bool } == [false, true, false])

    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
  }

  /// Proves that a movie list's recordings are inspected — pages fetched with failed requests
  /// retried, and a list ended by a failure: the pages' and the failure's arrivals are effects,
  /// and the last state is the replay's.
  @Test(
    .enabled(if: inspector != nil && movies != nil, "build cascade-inspect and movies first"),
    arguments: Architecture.allCases
  )
  func aMovieListIsInspected(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let movies = try #require(Self.movies)
    // With retries, the page source asks again and every page arrives; without, the first
    // failure ends the list (status 75) and is recorded.
    for (retries, status, arrivals) in [("3", Int32(0), 3), ("0", Int32(75), 1)] {
      let recording = directory.file("movies-\(retries).jsonl")
      let list = try await runChild(
        movies,
        [
          "list", "--pages", "3", "--architecture", architecture.rawValue, "--fail-rate", "0.3",
          "--seed", "5", "--retries", retries, "--record", recording.path,
        ]
      )
      #expect(list.status == status, "\(list.summary)")

      let served = try await InspectorExecutableTests.serve(recording)
      defer { Task { await served.child.stop() } }
      let summary = try served.get("/api/summary").json()
      #expect(summary["app"] as? String == "movies")
      #expect(summary["architecture"] as? String == architecture.rawValue)
      let steps = try Self.timeline(served)
      let effects = steps.filter { $0["source"] as? String == "effect" }
      #expect(effects.count == arrivals, "\(effects)")
      #expect(effects.allSatisfy { $0["kind"] as? String != "intent" })

      let replay = try replayMoviesSession(architecture, contentsOf: recording, command: "list")
      _ = try await replay.replayRecording()
      let last = try Self.state(served, after: steps.count - 1)
      #expect(try Self.canonical(last) == Self.json(replay.service.currentState))
      let lastState = try #require(last as? [String: Any])
      #expect((lastState["movies"] as? [Any])?.count == replay.service.currentState.movies.count)
      #expect((lastState["failure"] != nil) == (status != 0), "\(lastState)")

      let run = await served.child.stop()
      #expect(run.succeeded, "\(run.summary)")
    }
  }
}
