import AppSupport
import AppTestSupport
import CascadeStreams
import Foundation
import InspectorLink
import RPGCore
import Testing

/// `cascade-inspect FILE`, run as a user runs it (the built executable) on recordings the RPG
/// makes: it prints its URL, answers only the token, only its host, only GET; its summary,
/// timeline, filter, states and diffs match the recording and the RPG's own replay of it; a
/// file it cannot read ends it with one line and its exit status.
@Suite struct InspectorExecutableTests {
  static let inspector = builtProduct(named: "cascade-inspect")
  static let rpg = builtProduct(named: "rpg")

  /// The game recorded: one level of each kind of step, a save (an effect) and a load.
  static let script = "new Ada 42\nexplore\nattack\nattack\nsave\nload\n"
  /// The intents the script sends, in order.
  static let intents: [GameIntent] = [
    .newGame(name: "Ada", seed: 42), .explore, .attack, .attack, .save(overwrite: false), .load,
  ]

  /// Records the script's game on `architecture` into `directory`, and returns the recording.
  static func record(
    _ architecture: Architecture,
    in directory: TemporaryDirectory
  ) async throws
    -> URL
  {
    let rpg = try #require(Self.rpg, "build the rpg product first")
    let script = directory.file("game.txt")
    try Data(Self.script.utf8).write(to: script)
    let recording = directory.file("game-\(architecture).jsonl")
    let run = try await runChild(
      rpg,
      [
        "play", "--script", script.path, "--record", recording.path,
        "--save", directory.file("save-\(architecture).json").path,
        "--architecture", architecture.rawValue,
      ]
    )
    #expect(run.succeeded, "rpg: \(run.summary)")
    return recording
  }

  /// A running inspector: the child, and its URL's port and token.
  struct Served {
    let child: ServingChild
    let port: UInt16
    let token: String

    func get(_ path: String, token: Bool = true) throws -> HTTPAnswer {
      let separator = path.contains("?") ? "&" : "?"
      return try loopbackRequest(
        port: port,
        path: token ? path + separator + "token=" + self.token : path
      )
    }
  }

  /// Starts `cascade-inspect FILE` and waits for the URL it prints.
  static func serve(_ file: URL) async throws -> Served {
    let executable = try #require(inspector, "build the cascade-inspect product first")
    let child = try ServingChild(executable, [file.path])
    guard let line = await child.firstLine() else {
      let run = await child.stop()
      Issue.record("cascade-inspect printed no URL: \(run.summary)")
      throw LoopbackHTTPError(description: "no URL")
    }
    let url = try #require(URL(string: line), "not a URL: \(line)")
    #expect(url.host == "127.0.0.1")
    #expect(url.path == "/")
    let token = try #require(
      URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
        .first { $0.name == "token" }?.value
    )
    #expect(token.count == 64)
    let port = try #require(url.port.flatMap { UInt16(exactly: $0) })
    return Served(child: child, port: port, token: token)
  }

  /// Each line's kind after the session's start, as the recording's JSON says.
  static func kinds(of recording: URL, architecture: Architecture) throws -> [String] {
    try steps(of: recording, architecture: architecture).map(\.kind)
  }

  /// The kind and sequence number of each step of `recording`: each record after the session's
  /// start but its state checks, which are not steps.
  static func steps(
    of recording: URL,
    architecture: Architecture
  ) throws -> [(kind: String, sequence: Int)] {
    let text = try String(contentsOf: recording, encoding: .utf8)
    return try text.split(separator: "\n").dropFirst(2).compactMap { line in
      let record = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      )
      let input = try #require(record["input"] as? [String: Any])
      let sequence = try #require(record["sequence"] as? Int)
      let key = try #require(input.keys.first)
      switch key {
      case "check": return nil
      case "intent", "fact": return (key, sequence)
      default:
        if record["mutation"] != nil { return ("mutation", sequence) }
        return (architecture == .reactor ? "action" : "event", sequence)
      }
    }
  }

  /// The RPG's own replay of `recording`, intent by intent: the state before the first intent,
  /// then the state each intent's inputs lead to.
  static func replayedStates(
    _ architecture: Architecture,
    of recording: URL,
    in directory: TemporaryDirectory
  ) async throws -> [GameState] {
    let session = try replayGameSession(
      architecture,
      saveFile: directory.file("unused.json"),
      log: { _ in },
      contentsOf: recording,
      command: "play"
    )
    _ = try await session.fact("script") { .absent }
    _ = try await session.fact("saveExists") { .absent }
    var replayed = [GameState()]
    for intent in Self.intents {
      replayed.append(try await session.perform(intent) { _ in true })
    }
    return replayed
  }

  /// The diff the inspector shows from one state to another: ``JSONDiff``'s, of their JSON with
  /// sorted keys.
  static func diff(_ before: GameState, _ after: GameState) throws -> String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return JSONDiff.text(from: try encoder.encode(before), to: try encoder.encode(after))
  }

  static func state(in answer: HTTPAnswer) throws -> GameState {
    let state = try #require(try answer.json()["state"])
    return try JSONDecoder().decode(
      GameState.self,
      from: JSONSerialization.data(withJSONObject: state)
    )
  }

  /// Proves that the inspector answers only requests with its token (in the query, or in the
  /// cookie the first answer sets), to its own host, and only GET; and that it ends with status
  /// 0 on SIGTERM.
  @Test(.enabled(if: inspector != nil && rpg != nil, "build cascade-inspect and rpg first"))
  func onlyTheTokenOnItsHostAndGETAreAnswered() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let served = try await Self.serve(try await Self.record(.store, in: directory))
    let port = served.port

    let page = try served.get("/")
    #expect(page.status == 200)
    #expect(page.text.contains("Cascade Inspector"))
    #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
    let cookie = try #require(page.headers["set-cookie"])
    #expect(cookie.hasPrefix("cascade-inspect-token-\(port)=\(served.token);"))
    #expect(cookie.contains("HttpOnly"))
    #expect(try served.get("/inspector.js").status == 200)

    #expect(try served.get("/api/summary", token: false).status == 403)
    #expect(try served.get("/", token: false).status == 403)
    #expect(try loopbackRequest(port: port, path: "/api/summary?token=0123").status == 403)
    let withCookie = try loopbackRequest(
      port: port,
      path: "/api/summary",
      cookie: "other=1; cascade-inspect-token-\(port)=\(served.token)"
    )
    #expect(withCookie.status == 200)
    #expect(
      try loopbackRequest(
        port: port,
        path: "/api/summary",
        cookie: "cascade-inspect-token-\(port)=x"
      )
      .status == 403
    )
    // Another inspector's cookie (browsers share cookies between ports) is not this one's.
    #expect(
      try loopbackRequest(
        port: port,
        path: "/api/summary",
        cookie: "cascade-inspect-token-1=\(served.token)"
      ).status == 403
    )
    let query = "/api/summary?token=\(served.token)"
    #expect(try loopbackRequest(port: port, path: query, host: "localhost:\(port)").status == 200)
    // Host names are case-insensitive: the same host in capitals is answered too.
    for host in ["LOCALHOST:\(port)", "LocalHost:\(port)"] {
      #expect(
        try loopbackRequest(port: port, path: query, host: host).status == 200,
        "Host: \(host)"
      )
    }
    for host in ["evil.example", "evil.example:\(port)", "127.0.0.1", "localhost:1", "LOCALHOST:1"]
    {
      let refused = try loopbackRequest(port: port, path: query, host: host)
      #expect(refused.status == 421, "Host: \(host)")
      #expect(refused.headers["set-cookie"] == nil)
    }
    #expect(try loopbackRequest(port: port, path: query, method: "POST").status == 405)
    #expect(try loopbackRequest(port: port, path: query, method: "DELETE").status == 405)
    #expect(try served.get("/etc/passwd").status == 404)
    #expect(try served.get("/../../etc/passwd").status == 404)
    #expect(try served.get("/api/step/100000").status == 404)
    #expect(try served.get("/api/steps?kind=shell").status == 400)

    // A second inspector on the same port cannot listen: 74, one line.
    let executable = try #require(Self.inspector)
    let recording = directory.file("game-store.jsonl").path
    let busy = try await runChild(executable, [recording, "--port", "\(port)"])
    #expect(busy.status == 74, "\(busy.summary)")
    #expect(busy.errorText.filter { $0 == "\n" }.count == 1, "\(busy.errorText)")

    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
    #expect(run.errorText.isEmpty)
  }

  /// Proves that the summary counts the recording's steps by kind, that the timeline lists them
  /// in order (whole, and filtered by kind), and that the state after three steps and the diff
  /// each made are what the RPG's own replay of the recording reaches — on every architecture.
  @Test(
    .enabled(if: inspector != nil && rpg != nil, "build cascade-inspect and rpg first"),
    arguments: Architecture.allCases
  )
  func theTimelineStatesAndDiffsMatchTheRecordingAndItsReplay(
    _ architecture: Architecture
  )
    async throws
  {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recording = try await Self.record(architecture, in: directory)
    let kinds = try Self.kinds(of: recording, architecture: architecture)
    let served = try await Self.serve(recording)
    defer { Task { await served.child.stop() } }

    // The summary.
    let summary = try served.get("/api/summary").json()
    #expect(summary["app"] as? String == "rpg")
    #expect(summary["architecture"] as? String == architecture.rawValue)
    #expect(summary["command"] as? String == "play")
    #expect(summary["steps"] as? Int == kinds.count)
    let counts = Dictionary(kinds.map { ($0, 1) }, uniquingKeysWith: +)
    #expect(summary["kinds"] as? [String: Int] == counts)
    #expect(counts["intent"] == Self.intents.count)
    #expect(counts["fact"] == 2)

    // The whole timeline, in two pages.
    let first = try served.get("/api/steps?from=0&count=5").json()
    let rest = try served.get("/api/steps?from=5&count=1000").json()
    #expect(first["total"] as? Int == kinds.count)
    let steps =
      try #require(first["steps"] as? [[String: Any]])
      + #require(rest["steps"] as? [[String: Any]])
    #expect(steps.map { $0["index"] as? Int } == Array(0..<kinds.count))
    #expect(steps.map { $0["kind"] as? String } == kinds)
    let sequences = try Self.steps(of: recording, architecture: architecture).map(\.sequence)
    #expect(sequences.count == kinds.count && sequences.first == 2)
    #expect(steps.map { $0["sequence"] as? Int } == sequences)
    #expect(
      steps.filter { $0["source"] as? String == "effect" }.count == 2,
      "the save's and the load's outcomes come from effects"
    )

    // Filtered by kind.
    for kind in Set(kinds) {
      let page = try served.get("/api/steps?kind=\(kind)&count=1000").json()
      let positions = kinds.indices.filter { kinds[$0] == kind }
      #expect(page["total"] as? Int == positions.count)
      let filtered = try #require(page["steps"] as? [[String: Any]])
      #expect(filtered.map { $0["index"] as? Int } == positions)
      #expect(filtered.allSatisfy { $0["kind"] as? String == kind })
    }
    let intentsFromTwo = try #require(
      try served.get("/api/steps?kind=intent&from=2&count=2").json()["steps"]
        as? [[String: Any]]
    )
    // Named as the Swift source spells them, not as their Codable JSON (`{"attack":{}}`).
    #expect(intentsFromTwo.map { $0["description"] as? String } == ["attack", "attack"])

    // Searched by name and payload text, ignoring case: the steps whose name contains it, in
    // order, alone or within a kind (issue 36).
    let names = steps.map { ($0["description"] as? String ?? "").lowercased() }
    for (search, kind) in [("ATTACK", ""), ("Ada", ""), ("attack", "intent"), ("no such", "")] {
      let query =
        "search=\(search.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        + (kind.isEmpty ? "" : "&kind=\(kind)") + "&count=1000"
      let page = try served.get("/api/steps?\(query)").json()
      let expected = names.indices.filter {
        names[$0].contains(search.lowercased()) && (kind.isEmpty || kinds[$0] == kind)
      }
      #expect(page["total"] as? Int == expected.count, "\(query)")
      let found = try #require(page["steps"] as? [[String: Any]])
      #expect(found.map { $0["index"] as? Int } == expected, "\(query)")
      if search != "no such" { #expect(!expected.isEmpty, "\(query)") }
    }
    #expect(try served.get("/api/steps?search=\(String(repeating: "a", count: 201))").status == 400)

    // A step's message carries its input, as JSON, for the page's tree.
    let newGame = try served.get("/api/step/\(kinds.firstIndex(of: "intent")!)").json()
    #expect(
      newGame["input"] as? NSDictionary == ["newGame": ["name": "Ada", "seed": 42]] as NSDictionary
    )

    let replayed = try await Self.replayedStates(architecture, of: recording, in: directory)
    let intentPositions = kinds.indices.filter { kinds[$0] == "intent" }

    // Three steps: the last input of the explore, of the second attack, and of the save.
    for number in [1, 3, 4] {
      let intentPosition = intentPositions[number]
      let end = number + 1 < intentPositions.count ? intentPositions[number + 1] : kinds.count
      let before = try Self.state(in: served.get("/api/step/\(intentPosition)"))
      #expect(before == replayed[number], "state at the intent #\(number)")
      let last = try served.get("/api/step/\(end - 1)")
      #expect(last.status == 200)
      let state = try Self.state(in: last)
      #expect(state == replayed[number + 1], "state after intent #\(number)")
      let previous = try Self.state(in: served.get("/api/step/\(end - 2)"))
      let expectedDiff = try Self.diff(previous, replayed[number + 1])
      #expect(expectedDiff != nil)
      #expect(try last.json()["diff"] as? String == expectedDiff)
    }
    // An intent changes nothing by itself.
    let intentStep = try served.get("/api/step/\(intentPositions[1])").json()
    #expect(intentStep["diff"] is NSNull)

    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
  }

  /// Proves that a recording of 100,000 records opens and that a step near its end is served
  /// with the state the records before it lead to (the test-sized version of the scale goal: a
  /// million inputs opening in under 2 seconds is measured by hand; this asserts no time).
  @Test(.enabled(if: inspector != nil, "build cascade-inspect first"))
  func aLongRecordingOpensAndAStepNearItsEndIsServed() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("long.jsonl")
    let records = 100_000
    try Data(Self.longRecording(records: records).utf8).write(to: file)
    let served = try await Self.serve(file)
    defer { Task { await served.child.stop() } }

    let summary = try served.get("/api/summary").json()
    #expect(summary["steps"] as? Int == records)
    #expect(summary["kinds"] as? [String: Int] == ["intent": records / 2, "event": records / 2])
    // Step 99,997 is the refusal of rest 49,997; with the player's arrival, 49,999 changes.
    let index = records - 3
    let answer = try served.get("/api/step/\(index)")
    #expect(answer.status == 200)
    let state = try Self.state(in: answer)
    #expect(state.changes == index / 2 + 1)
    #expect(state.message == "rest \(index / 2 - 1)")
    #expect(state.game?.player.name == "Ada")
    let step = try #require(try answer.json()["step"] as? [String: Any])
    #expect(step["sequence"] as? Int == index + 2)
    #expect(step["kind"] as? String == "event")
    let lastPage = try served.get("/api/steps?from=\(records - 2)&count=10").json()
    #expect((lastPage["steps"] as? [[String: Any]])?.count == 2)
    // A recording holds no timings: its trace is refused, and the answer says where one is.
    let trace = try served.get("/api/trace")
    #expect(trace.status == 404)
    #expect(trace.text.contains("--live"), "\(trace.text)")

    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
  }

  /// Proves that a line damaged inside its JSON, which opening does not decode, is reported
  /// when a step needs it (422, naming the step), and that the steps before it are still
  /// served.
  @Test(.enabled(if: inspector != nil, "build cascade-inspect first"))
  func aLineDamagedInsideIsReportedByTheStepsThatNeedIt() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("damaged.jsonl")
    var lines = Self.longRecording(records: 10).split(separator: "\n").map(String.init)
    // Step 5: an event whose change is not one.
    lines[7] = #"{"input":{"rpg.store":{"changed":{"_0":{"exploded":{}}}}},"sequence":7,"time":0}"#
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
    let served = try await Self.serve(file)
    defer { Task { await served.child.stop() } }

    #expect(try served.get("/api/step/4").status == 200)
    for index in [5, 9] {
      let answer = try served.get("/api/step/\(index)")
      #expect(answer.status == 422)
      #expect(
        answer.text.hasPrefix("step \(index) cannot be read from the recording: line 8 (step 5)"),
        "\(answer.text)"
      )
    }
    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
  }

  /// A store recording of `records` records after its start: a new game, then a `rest` intent
  /// and its refusal, over and over.
  static func longRecording(records: Int) -> String {
    var lines = [
      #"{"cascadeRecording":1}"#,
      #"{"input":{"session":{"app":"rpg","architecture":"store","command":"play","start":{}}},"#
        + #""sequence":1,"time":0}"#,
      #"{"input":{"intent":{"newGame":{"name":"Ada","seed":42}}},"sequence":2,"time":0}"#,
      #"{"input":{"rpg.store":{"addPlayer":{"_0":{"defeated":0,"player":{"attack":5,"hp":20,"#
        + #""inventory":{"gold":0,"potions":2},"level":1,"maxHP":20,"name":"Ada","xp":0},"#
        + #""seed":42,"step":0}}}},"sequence":3,"time":0}"#,
    ]
    lines.reserveCapacity(records + 2)
    for pair in 0..<(records / 2 - 1) {
      let sequence = 4 + 2 * pair
      lines.append(#"{"input":{"intent":{"rest":{}}},"sequence":\#(sequence),"time":0}"#)
      lines.append(
        #"{"input":{"rpg.store":{"changed":{"_0":{"refused":{"_0":"rest \#(pair)"}}}}},"#
          + #""sequence":\#(sequence + 1),"time":0}"#
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A file the inspector cannot read, and the status it ends with.
  enum BadFile: String, CaseIterable, CustomTestStringConvertible {
    case missing, empty, notJSON, notASession, damagedLine, cutShort, anotherApp
    case anotherAppsHeader

    var testDescription: String { rawValue }

    var status: Int32 { self == .missing ? 66 : 65 }

    /// Writes the file into `directory` from a good `recording`, and returns its path.
    func write(in directory: TemporaryDirectory, from recording: String) throws -> String {
      let file = directory.file("\(rawValue).jsonl")
      var lines = recording.split(separator: "\n").map(String.init)
      let text: String
      switch self {
      case .missing: return file.path
      // Not mapped: Foundation's mapped read of an empty file leaked its buffer (fuzz-inspector).
      case .empty: text = ""
      case .notJSON: text = "hello\nworld\n"
      case .notASession: text = #"{"cascadeRecording":1}"# + "\n" + #"{"sequence":1}"# + "\n"
      case .damagedLine:
        lines[5] = "garbage"
        text = lines.joined(separator: "\n") + "\n"
      case .cutShort:
        text = lines.joined(separator: "\n").dropLast(5) + ""
      case .anotherApp:
        text = recording.replacingOccurrences(of: #""app":"rpg""#, with: #""app":"chess""#)
      case .anotherAppsHeader:
        // A todo recording's header says what the list started from; this one does not.
        text = recording.replacingOccurrences(of: #""app":"rpg""#, with: #""app":"todo""#)
      }
      try Data(text.utf8).write(to: file)
      return file.path
    }
  }

  /// Proves that a file that is missing, not a recording, damaged or of another app ends the
  /// inspector with one line on standard error and 66 (missing) or 65 (bad data), never a
  /// crash, before it serves anything.
  @Test(
    .enabled(if: inspector != nil && rpg != nil, "build cascade-inspect and rpg first"),
    arguments: BadFile.allCases
  )
  func aFileThatIsNotARecordingEndsItWithOneLine(_ bad: BadFile) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recording = try String(
      contentsOf: try await Self.record(.store, in: directory),
      encoding: .utf8
    )
    let path = try bad.write(in: directory, from: recording)
    let executable = try #require(Self.inspector)
    let run = try await runChild(executable, [path])
    #expect(!run.signalled && !run.timedOut)
    #expect(run.status == bad.status, "\(run.summary)")
    #expect(run.output.isEmpty)
    #expect(run.errorText.hasPrefix("cannot inspect \(path): "))
    #expect(run.errorText.filter { $0 == "\n" }.count == 1, "\(run.errorText)")
  }

  /// Proves that `--version` prints the package's version, and a bad port is a usage error.
  @Test(.enabled(if: inspector != nil, "build cascade-inspect first"))
  func versionAndUsage() async throws {
    let executable = try #require(Self.inspector)
    let version = try await runChild(executable, ["--version"])
    #expect(version.succeeded)
    #expect(version.outputText == CascadeVersion.current + "\n")
    let usage = try await runChild(executable, ["game.jsonl", "--port", "http"])
    #expect(usage.status == 64, "\(usage.summary)")
  }
}
