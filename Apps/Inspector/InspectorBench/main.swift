// cascade-inspector-bench: the inspector at scale (issue 36), measured, not tested.
//
//   swift run -c release --package-path Apps cascade-inspector-bench scrub [INPUTS] [TASKS]
//   swift run -c release --package-path Apps cascade-inspector-bench live [INPUTS] [TASKS]
//   swift run -c release --package-path Apps cascade-inspector-bench live-rpg [INTENTS] [ARCH]
//
// scrub: a todo session recording of INPUTS inputs (default 100,000) on a list of TASKS tasks
// (default 30,000: a state of about 3 MB as JSON), opened as cascade-inspect opens it; the time
// to open it, to compute its checkpoints, and to answer 200 jumps to seeded random steps.
// live: a store holding the same list processes INPUTS inputs (default 200), with and without a
// live inspector's middleware (`--inspect`), and the inputs per second of each.
// live-rpg: the game, on each architecture (or on ARCH: store, reactor, feedback), handles
// INTENTS intents (default 20,000) after as many not timed, without and with `--inspect`, then
// with a client attached (`cascade-inspect --live`, built beside this executable, in a process
// of its own as a user runs it), then with that client recording a trace (the app timed), and
// the intents per second of each; each run on the global executor's threads. For a profiler,
// CASCADE_BENCH_ONLY=plain, =inspected, =attached or =traced runs only those, and
// CASCADE_BENCH_RUNS=N runs each N times instead of five; with one run of one, the peak resident
// memory printed is that run's (the inspector's memory: `--inspect`, a busy app).
import AppSupport
import CascadeStore
import CustomDump
import Foundation
import InspectorKit
import InspectorLink
import RPGCore
import TodoCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A task of the list, as `TodoState` encodes it.
struct Task: Codable, Sendable, Equatable {
  var done: Bool
  var id: Int
  var position: Int
  var title: String
}

/// The list of `count` tasks, each with a title of about 90 characters.
func tasks(_ count: Int) -> [Task] {
  (0..<count).map { index in
    Task(
      done: index % 3 == 0,
      id: index + 1,
      position: index,
      title: "Task \(index + 1): review the chapter, answer the mail, water the plants, call back"
    )
  }
}

let clock = ContinuousClock()

func milliseconds(_ duration: Duration) -> String {
  let ms =
    Double(duration.components.seconds) * 1_000
    + Double(duration.components.attoseconds) / 1e15
  return String(format: "%.1f ms", ms)
}

func percentile(_ sorted: [Duration], _ p: Double) -> Duration {
  sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// A SplitMix64 draw, for seeded jumps.
struct Draws {
  var state: UInt64
  mutating func next(below bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}

func scrub(inputs: Int, taskCount: Int) async throws {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("inspector-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let file = directory.appendingPathComponent("todo-scale.jsonl")

  struct Start: Encodable {
    var canRedo = false
    var canUndo = true
    var filter = "all"
    var intentsHandled = 0
    var nextID: Int
    var pendingWrites: [Int] = []
    var searchText = ""
    var tasks: [Task]
    var writesIssued = 0
  }
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  let startJSON = try encoder.encode(Start(nextID: taskCount + 1, tasks: tasks(taskCount)))
  let start = try JSONDecoder().decode(TodoState.self, from: startJSON)
  // Where a jump's time goes: encoding the state after it, and diffing it with the one before.
  var changedTasks = tasks(taskCount)
  changedTasks[taskCount / 2].done.toggle()
  let changedJSON = try encoder.encode(Start(nextID: taskCount + 1, tasks: changedTasks))
  let changed = try JSONDecoder().decode(TodoState.self, from: changedJSON)
  // Best of five, alternated: the machine's other work falls on both alike.
  var encoded = Duration.seconds(1_000)
  var sortedEncoded = encoded
  var encodedStart = Data()
  for _ in 0..<5 {
    let encoding = clock.now
    encodedStart = try encoder.encode(start)
    encoded = min(encoded, clock.now - encoding)
    let sortedEncoding = clock.now
    let sortedStart = try SortedJSONEncoder(escapesSlashes: false).encode(start)
    sortedEncoded = min(sortedEncoded, clock.now - sortedEncoding)
    precondition(sortedStart == encodedStart, "SortedJSONEncoder wrote what JSONEncoder did not")
  }
  let dumping = clock.now
  let dumped = CustomDump.diff(start, changed)
  let dumpTime = clock.now - dumping
  let diffing = clock.now
  let jsonDiff = JSONDiff.text(from: encodedStart, to: try encoder.encode(changed))
  let jsonDiffTime = clock.now - diffing
  precondition(dumped != nil && jsonDiff != nil)
  print(
    "  the state encoded (best of five) in \(milliseconds(encoded)) by Foundation's JSONEncoder, in "
      + "\(milliseconds(sortedEncoded)) by SortedJSONEncoder; one change diffed by swift-custom-dump in "
      + "\(milliseconds(dumpTime)), by JSONDiff (encoding the second state included) in "
      + "\(milliseconds(jsonDiffTime)): \(jsonDiff ?? "")"
  )
  let header = SessionHeader(app: "todo", architecture: .store, command: "shell", start: start)
  var text = #"{"cascadeRecording":1}"# + "\n"
  text +=
    #"{"input":{"session":"# + String(decoding: try encoder.encode(header), as: UTF8.self)
    + #"},"sequence":1,"time":0}"# + "\n"
  for index in 0..<inputs {
    text +=
      #"{"input":{"todo.store":{"intent":{"_0":{"search":{"_0":"q"#
      + "\(index % 1_000)" + #""}}}}},"sequence":"# + "\(index + 2)" + #","time":0}"# + "\n"
  }
  try Data(text.utf8).write(to: file)
  let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
  print(
    "scrub: \(inputs) inputs on a list of \(taskCount) tasks: the state is "
      + "\(startJSON.count / 1_000) kB of JSON, the recording \(size / 1_000) kB"
  )

  let opening = clock.now
  let inspector = try Inspector(recordingAt: file.path)
  print("  opened (indexed) in \(milliseconds(clock.now - opening))")
  let warming = clock.now
  _ = try await inspector.start(port: 0)
  _ = try inspector.step(inputs - 1)
  print("  checkpoints computed, last step answered, in \(milliseconds(clock.now - warming))")
  var draws = Draws(state: 42)
  var times: [Duration] = []
  var bytes = 0
  for _ in 0..<200 {
    let index = draws.next(below: inputs)
    let asked = clock.now
    let answer = try inspector.step(index)
    times.append(clock.now - asked)
    bytes = max(bytes, answer?.count ?? 0)
  }
  times.sort()
  print(
    "  200 jumps to random steps: median \(milliseconds(percentile(times, 0.5))), "
      + "p95 \(milliseconds(percentile(times, 0.95))), max \(milliseconds(times.last ?? .zero)); "
      + "answers up to \(bytes / 1_000) kB"
  )
  await inspector.stop()
}

/// The list as a store's state: toggling a task is one input.
struct List: Codable, Sendable, Equatable {
  var tasks: [Task]
  var toggles = 0
}

/// A middleware that only observes, and does nothing: the engine's own cost of a middleware.
struct Observer: Middleware {
  var interceptsInputs: Bool { false }
  func process(_ record: MiddlewareRecord<Int, List>) {}
}

func live(inputs: Int, taskCount: Int) async {
  let list = List(tasks: tasks(taskCount))
  func run(_ middlewares: [any Middleware<Int, List>]) async -> Double {
    let store = Store<List, Int>(initialState: list, middlewares: middlewares) { list, index in
      list.tasks[index % list.tasks.count].done.toggle()
      list.toggles += 1
    }
    let started = clock.now
    for index in 0..<inputs { store.send(index &* 7_919) }
    await store.finish()
    let elapsed = clock.now - started
    precondition(store.state.toggles == inputs)
    return Double(inputs)
      / (Double(elapsed.components.seconds)
        + Double(elapsed.components.attoseconds) / 1e18)
  }
  // Alternated, best of three each: the machine's other work falls on both alike.
  var plain = 0.0
  var observed = 0.0
  var inspected = 0.0
  var captured = 0
  var caughtUp = Duration.zero
  for _ in 0..<3 {
    plain = max(plain, await run([]))
    observed = max(observed, await run([Observer()]))
    let inspector = LiveInspector(app: "bench", architecture: .store, command: "bench")
    let live: LiveInputs<Int, List> = inspector.inputs(of: List.self, kind: .event)
    inspected = max(inspected, await run([live]))
    let finished = clock.now
    await live.published()
    caughtUp = clock.now - finished
    precondition(inspector.stepCount == inputs)
    captured = inspector.capturedCount
  }
  print(
    "live: \(inputs) inputs on a list of \(taskCount) tasks: \(Int(plain)) inputs/s plain, "
      + "\(Int(observed)) with a middleware that does nothing, "
      + "\(Int(inspected)) inputs/s inspected: "
      + String(format: "%.1f %% of the throughput lost", (1 - inspected / plain) * 100)
      + "; \(captured) states captured, every step published \(milliseconds(caughtUp)) after "
      + "the app's last"
  )
}

/// `cascade-inspect --live URL`, run as a user runs it: a process of its own.
struct LiveClient {
  let process: Process
  /// Its page's port and token.
  let port: String
  let token: String

  init(endpoint: URL) throws {
    process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      .deletingLastPathComponent().appendingPathComponent("cascade-inspect")
    process.arguments = ["--live", endpoint.absoluteString]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Its first line: the page's URL, `http://127.0.0.1:PORT/?token=…`.
    var line = Data()
    while true {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
      line.append(byte)
    }
    let components = URLComponents(string: String(decoding: line, as: UTF8.self))
    guard let port = components?.port,
      let token = components?.queryItems?.first(where: { $0.name == "token" })?.value
    else {
      process.terminate()
      throw CocoaError(.fileReadCorruptFile)
    }
    self.port = "\(port)"
    self.token = token
  }

  /// `POST /api/timing?on=true`: the app timed from now on.
  func recordTimings() async throws {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/timing?on=true")!)
    request.httpMethod = "POST"
    request.setValue(token, forHTTPHeaderField: "X-Cascade-Token")
    _ = try await URLSession.shared.data(for: request)
  }

  /// How many steps it received.
  func received() async throws -> Int {
    let url = URL(string: "http://127.0.0.1:\(port)/api/summary?token=\(token)")!
    let (data, _) = try await URLSession.shared.data(from: url)
    return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["steps"] as? Int ?? 0
  }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}

/// A run of `live-rpg`'s cell: the intents handled per second, and what sending them cost the
/// sending thread (its processor time per intent, the page faults it took).
struct Measured {
  var rate: Double
  var nanosecondsPerIntent: Int
  var faults: Int

  /// Of this run and `other`, the best of each figure: runs differ (a machine's other work), and
  /// the best is the one least disturbed.
  func best(with other: Measured?) -> Measured {
    guard let other else { return self }
    return Measured(
      rate: max(rate, other.rate),
      nanosecondsPerIntent: min(nanosecondsPerIntent, other.nanosecondsPerIntent),
      faults: min(faults, other.faults)
    )
  }
}

/// The calling thread's processor time and page faults so far.
struct ThreadUsage {
  var cpuNanoseconds: Int
  var minorFaults: Int

  init() {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    cpuNanoseconds = time.tv_sec * 1_000_000_000 + time.tv_nsec
    var usage = rusage()
    #if os(Linux)
    // RUSAGE_THREAD, which Glibc's module does not export (the header defines it for _GNU_SOURCE).
    getrusage(__rusage_who_t(1), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    minorFaults = usage.ru_minflt
  }
}

/// How the game runs in a cell of `live-rpg`.
enum Inspection: String, CaseIterable {
  /// Without the live inspector.
  case plain
  /// With it (`rpg --inspect`), no client attached.
  case inspected
  /// With `cascade-inspect --live` attached, reading every step.
  case attached
  /// With that client recording a trace: the app timed.
  case traced
}

/// The game (`rpg`) on each architecture: `intents` intents (explore, attack, rest, potion, flee)
/// sent at once after a new game, and the time until all are handled, for each ``Inspection``;
/// best of five, alternated.
func liveRPG(intents: Int, only: Architecture?) async throws {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("inspector-bench-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let cycle: [GameIntent] = [.explore, .attack, .attack, .rest, .drinkPotion, .explore, .flee]
  let onlyCell = ProcessInfo.processInfo.environment["CASCADE_BENCH_ONLY"]
    .flatMap(Inspection.init(rawValue:))
  let runs =
    ProcessInfo.processInfo.environment["CASCADE_BENCH_RUNS"].flatMap { Int($0) }
    .map { min(max($0, 1), 100) } ?? 5
  for architecture in Architecture.allCases where only.map({ $0 == architecture }) ?? true {
    func run(_ inspector: LiveInspector?) async -> Measured {
      // On the global executor's threads, whichever run it is: the first run would otherwise
      // start on the main thread, and the runs would not compare.
      await _Concurrency.Task.detached { await measure(inspector) }.value
    }
    @Sendable func measure(_ inspector: LiveInspector?) async -> Measured {
      let game = makeGameSession(
        architecture,
        saveFile: directory.appendingPathComponent("save.json"),
        log: { _ in },
        command: "bench",
        inspector: inspector
      ).service
      game.send(.newGame(name: "Bench", seed: 42))
      await game.finish()
      // As an app inspected for a while: the inspection's buffers have grown to the batches
      // they take (their first growth, page faults and copies, is not what a live app pays).
      for index in 0..<intents { game.send(cycle[index % cycle.count]) }
      await game.finish()
      if let inspector { await inspector.caughtUp() }
      let started = clock.now
      let before = ThreadUsage()
      for index in 0..<intents { game.send(cycle[index % cycle.count]) }
      let sent = ThreadUsage()
      await game.finish()
      let elapsed = clock.now - started
      return Measured(
        rate: Double(intents)
          / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18),
        nanosecondsPerIntent: (sent.cpuNanoseconds - before.cpuNanoseconds) / intents,
        faults: sent.minorFaults - before.minorFaults
      )
    }
    var best: [Inspection: Measured] = [:]
    var steps = 0
    var skipped = 0
    var received = 0
    for _ in 0..<runs {
      for cell in Inspection.allCases where onlyCell.map({ $0 == cell }) ?? true {
        guard cell != .plain else {
          best[cell] = await run(nil).best(with: best[cell])
          continue
        }
        let inspector = LiveInspector(app: "rpg", architecture: architecture, command: "bench")
        var client: LiveClient?
        if cell == .attached || cell == .traced {
          let endpoint = try await inspector.start(port: 0)
          client = try LiveClient(endpoint: endpoint)
          if cell == .traced { try await client?.recordTimings() }
        }
        best[cell] = await run(inspector).best(with: best[cell])
        // Not timed: the next run starts once this one's steps are published and the client is
        // gone, so that the inspection's threads do not run on beside it.
        await inspector.caughtUp()
        steps = inspector.stepCount
        skipped = inspector.skippedSteps
        if let client {
          received = try await client.received()
          client.stop()
          await inspector.stop()
        }
      }
    }
    let plain = best[.plain]?.rate ?? 0
    func rate(_ cell: Inspection) -> String {
      guard let measured = best[cell] else { return "-" }
      let usage = " [\(measured.nanosecondsPerIntent) ns, \(measured.faults) faults]"
      let rate = measured.rate
      guard plain > 0, cell != .plain else { return "\(Int(rate))" + usage }
      return "\(Int(rate)) (" + String(format: "%.1f %% lost", (1 - rate / plain) * 100) + ")"
        + usage
    }
    print(
      "live rpg (\(architecture)): \(intents) intents/s: plain \(rate(.plain)); `--inspect` "
        + "\(rate(.inspected)); a client attached \(rate(.attached)); the client recording a "
        + "trace (the app timed) \(rate(.traced)); \(steps) steps published (\(skipped) skipped: the "
        + "app ran further ahead than the endpoint keeps), \(received) received by the client when "
        + "the app was done; peak resident memory \(peakResidentMegabytes()) MB"
    )
  }
}

/// The process's peak resident memory so far (`VmHWM`), in MB; 0 where it cannot be read.
func peakResidentMegabytes() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
  else { return 0 }
  return kilobytes / 1024
}

let arguments = CommandLine.arguments.dropFirst()
let mode = arguments.first ?? "scrub"
let numbers = arguments.dropFirst().compactMap { Int($0) }
switch mode {
case "scrub":
  try await scrub(inputs: numbers.first ?? 100_000, taskCount: numbers.dropFirst().first ?? 30_000)
case "live-rpg":
  try await liveRPG(
    intents: numbers.first ?? 20_000,
    only: arguments.dropFirst().lazy.compactMap { Architecture(rawValue: $0) }.first
  )
case "live":
  await live(inputs: numbers.first ?? 200, taskCount: numbers.dropFirst().first ?? 30_000)
default:
  FileHandle.standardError.write(
    Data("usage: cascade-inspector-bench scrub|live|live-rpg [INPUTS] [TASKS]\n".utf8)
  )
  exit(64)
}
