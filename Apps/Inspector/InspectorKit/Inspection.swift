import AppSupport
import CascadeStreams
import Foundation
import InspectorLink

/// What the inspector's JSON API answers, for any app: the recording's summary, pages of its
/// timeline, and the state after a step with the diff the step made.
protocol InspectionAPI: Sendable {
  /// `/api/summary`.
  func summary() -> Data
  /// `/api/steps`: `count` steps from position `from` of the timeline, or of its steps of `kind`
  /// whose name contains `search` (ignoring case; every step when it is empty).
  func steps(from: Int, count: Int, kind: StepKind?, search: String) -> Data
  /// `/api/step/I`: the state after step `index` and its diff, or `nil` if there is no such step.
  func step(_ index: Int) throws -> Data?
  /// `/api/step/I` as the server answers it: ``step(_:)``, with a live step's state that the
  /// app did not send rebuilt by "replay to here".
  func servedStep(_ index: Int) async throws -> Data?
  /// Marks the warming as started, before ``warm()`` runs on its thread.
  func prepareWarming()
  /// Computes the states' checkpoints ahead of the requests.
  func warm()
  /// Whether the steps come live from a running app (`--live`), and may grow.
  var isLive: Bool { get }
  /// Returns once there are more than `count` steps, or no more can come.
  func waitForSteps(beyond count: Int) async
  /// "Replay to here": the app's answer, `{"replayed":{…},"state":…}`.
  func replay(toStep step: Int) async -> Data
  /// Stops reading from the source (a followed file), once the server stops.
  func close()
  /// Skips step `index`, or brings it back: the states after it are recomputed without it.
  /// `{"skipped":[…],"origin":N}`, or `nil` when this inspection's states are not computed here
  /// (a live app's, a followed file's) or there is no such step after the origin.
  func toggleSkip(_ index: Int) -> Data?
  /// Makes the state after step `index` the start: the timeline begins after it. The same
  /// answer as ``toggleSkip(_:)``.
  func commit(at index: Int) -> Data?
  /// The steps as the timeline shows them, as a recording with states (`RecordingMiddleware`'s
  /// format, which `cascade-inspect FILE` opens): the state at the start, then each step's input
  /// and the state after it.
  func export() throws -> Data
  /// `/api/export-test`: the recording, as recorded (skips and commits are not applied: the
  /// test proves the recorded states), as a Swift Testing file and its name; `nil` when this
  /// inspection is not of an app's session recording read from a file.
  func exportTest() async throws(InspectorError) -> (name: String, source: String)?
  /// `/api/trace`: the engine's timings of the last `last` inputs and of the effects meanwhile,
  /// in Chrome's trace event format (Perfetto opens it).
  ///
  /// - Throws: ``TraceUnavailable`` when there are none: a recording holds no timings, only a
  ///   live app has them.
  func trace(last: Int) async throws(TraceUnavailable) -> Data
  /// `/api/timing`: asks a live app to time its inputs for the trace from now on (`true`) or no
  /// longer (`false`), or (`nil`) only reads; returns whether this inspector asks, and whether
  /// the app said it is timed (`nil`: not asked, or the app is gone).
  ///
  /// - Throws: ``TraceUnavailable`` when there is no app to time: a recording.
  func timing(_ on: Bool?) async throws(TraceUnavailable) -> (asked: Bool, timed: Bool?)
}

/// Why `/api/trace` has no trace to give.
struct TraceUnavailable: Error, CustomStringConvertible {
  var reason: String
  var description: String { reason }
}

extension InspectionAPI {
  /// A recording does not grow.
  var isLive: Bool { false }

  /// A recording does not grow: returns at once.
  func waitForSteps(beyond count: Int) async {}

  /// A recording read once, or a live app, has nothing to stop.
  func close() {}

  /// Every step has its state: ``step(_:)``.
  func servedStep(_ index: Int) async throws -> Data? { try step(index) }

  /// A recording holds no timings.
  func trace(last: Int) async throws(TraceUnavailable) -> Data {
    throw TraceUnavailable(reason: Self.noTimings)
  }

  /// A recording has no app to time.
  func timing(_ on: Bool?) async throws(TraceUnavailable) -> (asked: Bool, timed: Bool?) {
    throw TraceUnavailable(reason: Self.noTimings)
  }

  /// Why a recording has no trace.
  static var noTimings: String {
    "a trace is of a live app (rpg|movies|todo --inspect, then cascade-inspect --live URL): "
      + "a recording holds no timings"
  }

  /// Only an app's session recording, read from a file, is made into a test.
  func exportTest() async throws(InspectorError) -> (name: String, source: String)? { nil }

  /// A recording has no app to replay into.
  func replay(toStep step: Int) async -> Data {
    Data(#"{"replayed":{"error":"replay to here needs a live app (--live)"}}"#.utf8)
  }

  /// The steps' messages, as the timeline shows them, turned into a recording with states: each
  /// step's input, then its state when it changed.
  func exportMessages(_ messages: [Data]) -> Data {
    var lines = [Data(#"{"cascadeRecording":1}"#.utf8)]
    var last: Data?
    for (position, message) in messages.enumerated() {
      guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any],
        let step = object["step"] as? [String: Any]
      else { continue }
      var record: [String: Any] = [
        "input": object["input"] ?? step["description"] ?? NSNull(),
        "sequence": step["sequence"] as? Int ?? position + 1,
        "time": 0,
      ]
      if let input = object["input"] as? [String: Any], let action = input["action"],
        let mutation = input["mutation"], input.count == 2
      {
        record["input"] = action
        record["mutation"] = mutation
      }
      lines.append(ExportLine.json(record))
      if let state = object["state"] {
        let encoded = ExportLine.json(["state": state])
        if encoded != last { lines.append(encoded) }
        last = encoded
      }
    }
    return ExportLine.joined(lines)
  }

  /// Steps that come with their states cannot be skipped.
  func toggleSkip(_ index: Int) -> Data? { nil }

  /// Steps that come with their states cannot be committed.
  func commit(at index: Int) -> Data? { nil }
}

/// A recording being inspected: its index, and the states after its steps, computed on demand
/// from checkpoints.
///
/// The state after step *i* is the machine's state after the lines of steps 0…*i*. Computing it
/// starts from the nearest checkpoint before it (the machine after a multiple of
/// ``checkpointInterval`` steps, kept as they are passed), so that the first look at a step far
/// into a long recording reduces the lines up to it once, and every later step near a passed
/// point reduces at most ``checkpointInterval`` lines.
final class Inspection<Machine: InspectedMachine>: InspectionAPI {
  /// How many steps apart the checkpoints are.
  static var checkpointInterval: Int { 512 }

  let index: RecordingIndex
  /// The machine before the first step.
  private let initial: Machine
  private let checkpoints: CheckpointStore<Machine>
  private let kindPositions = LockedValue<[StepKind: [Int]]>([:])
  /// The steps skipped, and the first step the timeline shows (after a commit).
  private let edits = LockedValue(Edits())
  /// The checkpoints of the states with the current skips, seeded with the plain ones before
  /// the first skip; `nil` without skips.
  private let skippedCheckpoints = LockedValue<(skips: Set<Int>, store: CheckpointStore<Machine>)?>(
    nil
  )

  struct Edits {
    var skipped: Set<Int> = []
    var origin = 0
  }

  /// The positions of the last searches' steps, by kind and text (at most
  /// ``searchesKept``, forgotten all at once beyond that).
  private let searchPositions = LockedValue<[String: [Int]]>([:])
  static var searchesKept: Int { 16 }
  /// The last states encoded, by their number of steps and the steps skipped.
  private let encodedStates = LockedValue<[(count: Int, skips: Set<Int>, json: Data)]>([])

  init(index: RecordingIndex, initial: Machine) {
    self.index = index
    self.initial = initial
    checkpoints = CheckpointStore(initial: initial, interval: Self.checkpointInterval)
  }

  /// The machine after the first `count` steps.
  ///
  /// It starts from the last checkpoint at or before `count` (waiting, while the warming runs,
  /// for it to pass there), and passing a checkpoint it keeps it, or moves on to a later one
  /// another thread kept meanwhile.
  func machine(after count: Int, waitingForWarming wait: Bool = true) throws -> Machine {
    let interval = Self.checkpointInterval
    let (checkpoints, skips) = checkpointsInUse()
    var (done, machine) = checkpoints.start(for: count, waitingForWarming: wait)
    while done < count {
      // The front's intents and facts change nothing: only inputs are decoded.
      switch index.kinds[done] {
      case .intent, .fact: break
      case .action, .mutation, .event, .input:
        if skips.contains(done) { break }
        do {
          try machine.apply(recordLine: index.line(at: done))
        } catch {
          throw UnreadableStep(step: done, reason: "\(error)")
        }
      }
      done += 1
      guard done % interval == 0 else { continue }
      if let ahead = checkpoints.publish(machine, after: done, goingTo: count) {
        (done, machine) = ahead
      }
    }
    return machine
  }

  /// The checkpoints to start from, and the steps to skip: the plain ones without skips; with
  /// skips, a store of their own, seeded with the plain checkpoints before the first skip.
  private func checkpointsInUse() -> (CheckpointStore<Machine>, Set<Int>) {
    let skips = edits.withLock { $0.skipped }
    guard let first = skips.min() else { return (checkpoints, []) }
    return skippedCheckpoints.withLock { current in
      if let current, current.skips == skips { return (current.store, skips) }
      let store = checkpoints.seeded(upTo: first)
      current = (skips, store)
      return (store, skips)
    }
  }

  func toggleSkip(_ index: Int) -> Data? {
    let answer = edits.withLock { edits -> Edits? in
      guard index >= edits.origin, index < self.index.count else { return nil }
      if edits.skipped.remove(index) == nil { edits.skipped.insert(index) }
      return edits
    }
    return answer.map(encodeEdits)
  }

  func commit(at index: Int) -> Data? {
    let answer = edits.withLock { edits -> Edits? in
      guard index >= edits.origin, index < self.index.count else { return nil }
      edits.origin = index + 1
      return edits
    }
    return answer.map(encodeEdits)
  }

  func exportTest() async throws(InspectorError) -> (name: String, source: String)? {
    let header = index.header
    let suite = RecordingTestExport.suiteName(
      app: header.app,
      command: header.command,
      architecture: header.architecture.rawValue
    )
    let source = try await RecordingTestExport.source(
      forRecordingAt: index.path,
      suite: suite,
      generator: "the inspector's Export as test"
    )
    return (suite + ".swift", source)
  }

  func export() throws -> Data {
    let (origin, skips) = edits.withLock { ($0.origin, $0.skipped) }
    var machine = try machine(after: origin)
    let encoder = SortedJSONEncoder(escapesSlashes: false)
    func stateLine(_ machine: Machine) throws -> Data {
      var line = Data(#"{"state":"#.utf8)
      line.append(try encoder.encode(machine.state))
      line.append(UInt8(ascii: "}"))
      return line
    }
    var lines = [Data(#"{"cascadeRecording":1}"#.utf8), try stateLine(machine)]
    for stepIndex in origin..<index.count where !skips.contains(stepIndex) {
      let line = index.line(at: stepIndex)
      let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
      var record: [String: Any] = [
        "input": (object?["input"] as? [String: Any])?.first?.value ?? NSNull(),
        "sequence": object?["sequence"] as? Int ?? stepIndex + 1,
        "time": object?["time"] as? Double ?? 0,
      ]
      if index.kinds[stepIndex] == .mutation, let mutation = object?["mutation"] {
        record["mutation"] = mutation
      }
      lines.append(ExportLine.json(record))
      switch index.kinds[stepIndex] {
      case .intent, .fact: continue
      case .action, .mutation, .event, .input:
        do {
          try machine.apply(recordLine: line)
        } catch {
          throw UnreadableStep(step: stepIndex, reason: "\(error)")
        }
        lines.append(try stateLine(machine))
      }
    }
    return ExportLine.joined(lines)
  }

  private func encodeEdits(_ edits: Edits) -> Data {
    encode(EditsAnswer(skipped: edits.skipped.sorted(), origin: edits.origin))
  }

  /// Marks the warming as started: requests for steps beyond the checkpoints wait for it.
  func prepareWarming() {
    checkpoints.setWarming(true)
  }

  /// Computes the checkpoints of the whole recording, from the start.
  ///
  /// Run once, on a thread of its own, after opening, so that a jump far into a long recording
  /// finds a checkpoint near it. A line that does not decode stops it (the step that needs it
  /// reports it).
  func warm() {
    defer { checkpoints.setWarming(false) }
    _ = try? machine(after: index.count, waitingForWarming: false)
  }

  func summary() -> Data {
    var counts: [String: Int] = [:]
    for (kind, count) in index.kindCounts where count > 0 { counts[kind.description] = count }
    return encode(
      Summary(
        path: index.path,
        app: index.header.app,
        architecture: index.header.architecture.rawValue,
        command: index.header.command,
        steps: index.count,
        kinds: counts,
        editable: true,
        testable: true
      )
    )
  }

  func steps(from: Int, count: Int, kind: StepKind?, search: String) -> Data {
    var positions: [Int]? = kind.map { kind in
      kindPositions.withLock { cache in
        if let found = cache[kind] { return found }
        let found = index.kinds.indices.filter { index.kinds[$0] == kind }
        cache[kind] = found
        return found
      }
    }
    let origin = edits.withLock { $0.origin }
    if origin > 0 {
      positions = (positions ?? Array(0..<index.count)).filter { $0 >= origin }
    }
    if !search.isEmpty {
      positions = searchedPositions(matching: search, among: positions, kind: kind)
    }
    let total = positions?.count ?? index.count
    let start = min(max(0, from), total)
    let end = min(total, start + max(0, min(count, 1000)))
    let steps = (start..<end).map { position in
      describe(step: positions?[position] ?? position)
    }
    return encode(StepPage(total: total, from: start, steps: steps))
  }

  func step(_ stepIndex: Int) throws -> Data? {
    guard stepIndex >= 0, stepIndex < index.count else { return nil }
    let skips = edits.withLock { $0.skipped }
    let before = try machine(after: stepIndex)
    var after = before
    let changes: Bool
    switch index.kinds[stepIndex] {
    case .intent, .fact: changes = false
    case .action, .mutation, .event, .input: changes = !skips.contains(stepIndex)
    }
    do {
      if changes { try after.apply(recordLine: index.line(at: stepIndex)) }
    } catch {
      throw UnreadableStep(step: stepIndex, reason: "\(error)")
    }
    let state = try encodedState(of: after, after: stepIndex + 1, skips: skips)
    let difference = try changes ? diff(before, after, stepIndex, skips, state) : nil
    return StepMessage(step: describe(step: stepIndex), diff: difference)
      .encoded(withState: state, input: payload(ofStep: stepIndex))
  }

  /// The diff of the states of `before` (after `count` steps) and `after` (`state` as JSON).
  ///
  /// A struct's fields are compared first, those that are `Equatable` by `==` (an array that
  /// was not changed is the same storage: no element is read), and only the fields that differ
  /// are encoded and diffed (``JSONDiff``, named by the field): a step that changes a search
  /// text in a state of megabytes encodes two strings, not the state again. A state that is not
  /// a struct, or a field that is not `Encodable`, is diffed whole, from its JSON (the one
  /// before is often the last step's, kept).
  private func diff(
    _ before: Machine,
    _ after: Machine,
    _ count: Int,
    _ skips: Set<Int>,
    _ state: Data
  ) throws -> String? {
    let whole = { () throws -> String? in
      JSONDiff.text(
        from: try self.encodedState(of: before, after: count, skips: skips),
        to: state
      )
    }
    let beforeMirror = Mirror(reflecting: before.state)
    let afterFields = Array(Mirror(reflecting: after.state).children)
    let beforeFields = Array(beforeMirror.children)
    // The JSON's keys must be fields (no coding keys of its own; a `nil` field is left out),
    // and a field that changed a key, for the diff to be the whole JSON's, path for path, in
    // its order.
    let names = beforeFields.map { field in
      let label = field.label ?? ""
      return label.hasPrefix("_") ? String(label.dropFirst()) : label  // a wrapper's storage
    }
    guard beforeMirror.displayStyle == .struct, beforeFields.count == afterFields.count,
      let keys = JSONDiff.topLevelKeys(of: state), Set(keys).isSubset(of: names)
    else { return try whole() }
    let encoder = SortedJSONEncoder()
    var changes: [(key: String, text: String)] = []
    for (index, (old, new)) in zip(beforeFields, afterFields).enumerated() {
      guard old.label == new.label else { return try whole() }
      if let old = old.value as? any Equatable, old.isEqual(to: new.value) { continue }
      guard keys.contains(names[index]), let oldValue = old.value as? any Encodable,
        let newValue = new.value as? any Encodable
      else { return try whole() }
      let (oldJSON, newJSON) = (try encoder.encode(oldValue), try encoder.encode(newValue))
      // A `nil` is left out of the whole JSON: its key is added or removed there.
      guard oldJSON != Data("null".utf8), newJSON != Data("null".utf8) else { return try whole() }
      if let text = JSONDiff.text(from: oldJSON, to: newJSON, path: names[index]) {
        changes.append((names[index], text))
      }
    }
    let order = Dictionary(
      keys.enumerated().map { ($1, $0) },
      uniquingKeysWith: { first, _ in first }
    )
    let lines = changes.sorted { order[$0.key, default: 0] < order[$1.key, default: 0] }
      .flatMap { $0.text.split(separator: "\n", omittingEmptySubsequences: false) }
    guard !lines.isEmpty else { return nil }
    // At most 200 lines, as a whole diff.
    return lines.count > 200
      ? (lines.prefix(200) + ["… more changes"]).joined(separator: "\n")
      : lines.joined(separator: "\n")
  }

  /// The state of `machine`, the machine after `count` steps with `skips`, as JSON: from the
  /// last states encoded (a scrub asks for neighbours), or encoded and kept.
  private func encodedState(of machine: Machine, after count: Int, skips: Set<Int>) throws -> Data {
    if let kept = encodedStates.withLock({ kept in
      kept.first { $0.count == count && $0.skips == skips }?.json
    }) {
      return kept
    }
    let json = try SortedJSONEncoder().encode(machine.state)
    encodedStates.withLock { kept in
      kept.append((count, skips, json))
      if kept.count > Self.encodedStatesKept { kept.removeFirst() }
    }
    return json
  }

  /// How many encoded states are kept for the next answers.
  static var encodedStatesKept: Int { 4 }

  /// The positions among `candidates` (every step when `nil`) of the steps whose name contains
  /// `search`, ignoring case; kept for the next pages of the same search.
  private func searchedPositions(
    matching search: String,
    among candidates: [Int]?,
    kind: StepKind?
  )
    -> [Int]
  {
    let key = (kind?.description ?? "") + "\u{0}" + search
    if let found = searchPositions.withLock({ $0[key] }) { return found }
    let text = search.lowercased()
    let found = (candidates ?? Array(0..<index.count)).filter { position in
      let record = try? JSONSerialization.jsonObject(with: index.line(at: position))
      // The whole name, up to 4 KiB: a payload's text is searched beyond what the row shows.
      return name(of: record as? [String: Any], kind: index.kinds[position], limit: 4_096)
        .lowercased().contains(text)
    }
    searchPositions.withLock { cache in
      if cache.count >= Self.searchesKept { cache = [:] }
      cache[key] = found
    }
    return found
  }

  /// A step's name: its input's (``InputName``), and for a reactor's mutation
  /// `action → mutation`.
  private func name(of record: [String: Any]?, kind: StepKind, limit: Int) -> String {
    let input = (record?["input"] as? [String: Any])?.first?.value
    var name = input.map { InputName.name(of: $0, limit: limit) } ?? "?"
    if kind == .mutation, let mutation = record?["mutation"] {
      name += " → " + InputName.name(of: mutation, limit: limit)
    }
    return name
  }

  /// The `input` of step `stepIndex`'s message: its payload, and its mutation's.
  private func payload(ofStep stepIndex: Int) -> Data? {
    let record = try? JSONSerialization.jsonObject(with: index.line(at: stepIndex))
    let object = record as? [String: Any]
    let input = (object?["input"] as? [String: Any])?.first?.value
    func json(_ value: Any) -> Data? {
      try? JSONSerialization.data(
        withJSONObject: value,
        options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
      )
    }
    let mutation = index.kinds[stepIndex] == .mutation ? object?["mutation"] : nil
    return StepMessage.payload(input: input.flatMap(json), mutation: mutation.flatMap(json))
  }

  /// One line of the timeline.
  private func describe(step stepIndex: Int) -> StepMessage.Step {
    let line = index.line(at: stepIndex)
    let kind = index.kinds[stepIndex]
    let record = try? JSONSerialization.jsonObject(with: line) as? [String: Any]
    let sequence = record?["sequence"] as? Int ?? 0
    var description = name(of: record, kind: kind, limit: 240)
    if description.count > 240 { description = description.prefix(240) + "…" }
    let source: StepSource
    switch kind {
    case .intent, .fact: source = .user
    case .action, .mutation, .event, .input:
      let isEffect = (try? initial.isEffectOutcome(recordLine: line)) ?? false
      source = isEffect ? .effect : .user
    }
    var step = StepMessage.Step(
      index: stepIndex,
      sequence: sequence,
      kind: kind.description,
      description: description,
      source: source.rawValue
    )
    if edits.withLock({ $0.skipped.contains(stepIndex) }) { step.skipped = true }
    return step
  }

  private func encode(_ value: some Encodable) -> Data {
    (try? SortedJSONEncoder().encode(value)) ?? Data("{}".utf8)
  }
}

/// The lines of an export.
enum ExportLine {
  /// `value` as compact JSON, keys sorted.
  static func json(_ value: Any) -> Data {
    (try? JSONSerialization.data(
      withJSONObject: value,
      options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
    )) ?? Data("null".utf8)
  }

  /// The lines, each followed by a newline.
  static func joined(_ lines: [Data]) -> Data {
    var data = Data()
    for line in lines {
      data.append(line)
      data.append(0x0A)
    }
    return data
  }
}

/// A step whose line does not decode as a record of the recording's app and architecture.
struct UnreadableStep: Error, CustomStringConvertible {
  /// The step.
  var step: Int
  /// What the decoder said.
  var reason: String

  /// `line <n> (step <i>) is not a record of this app and architecture: <reason>`, on one line.
  var description: String {
    let text =
      "line \(step + 3) (step \(step)) is not a record of this app and architecture: \(reason)"
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}

/// `/api/summary`'s answer.
struct Summary: Encodable {
  /// The recording's path, or the live endpoint's URL without its token.
  var path: String
  var app: String
  var architecture: String
  var command: String
  var steps: Int
  /// Live: how many of the steps the timeline keeps, when it has let the oldest go.
  var kept: Int?
  var kinds: [String: Int]
  /// Whether the steps can be skipped and committed (a recording's, whose states are computed
  /// here).
  var editable: Bool?
  /// Whether `/api/export-test` makes a test of the recording (an app's session read from a
  /// file).
  var testable: Bool?
  /// Whether the steps come live from a running app.
  var live = false
  /// Live: whether the app is still connected.
  var connected: Bool?
  /// Live: why the connection ended, once it has.
  var ended: String?
}

/// The answer of `POST /api/skip/I` and `POST /api/commit/I`: the steps skipped, and the first
/// step the timeline shows.
struct EditsAnswer: Encodable {
  var skipped: [Int]
  var origin: Int
}

/// `/api/steps`' answer.
struct StepPage: Encodable {
  var total: Int
  var from: Int
  var steps: [StepMessage.Step]
}

extension Equatable {
  /// Whether `other` is a `Self` equal to this value: `==` through an existential.
  fileprivate func isEqual(to other: Any) -> Bool {
    (other as? Self).map { $0 == self } ?? false
  }
}
