public import CascadeMiddleware
public import CascadeStore
import CascadeStreams
import Foundation

/// A front's session with its service: live, live and recorded, or replayed from a recording.
///
/// A front (a command-line command) goes through its session for everything that is not its own
/// logic, so that a recording of the session holds all it needs to replay it:
///
/// - ``perform(_:timeout:finishing:until:)`` sends an intent and waits for the state that ends it;
/// - ``fact(_:live:)`` (``line(live:)``, ``flag(_:live:)``) reads something from outside the
///   service: a line typed, whether a file exists, a file's bytes;
/// - ``finish()`` ends the session.
///
/// **Live**, these do the work. **Recording**, they also record the intents and facts, in order
/// with the inputs the architecture processes (the recorder's middleware records those). **In a
/// replay**, the service is a fresh one in replay mode: an intent is checked against the
/// recorded one and the inputs recorded after it are replayed (its states, and no effect: no
/// request, no database or file write), and a fact is the recorded one — so the front, running
/// the same code, prints what it printed live. A replay never reads standard input, a script or
/// the network, and never waits for time to pass.
///
/// ```swift
/// let session = makeMoviesSession(.store, client: client, command: "list", recordingTo: url)
/// let state = try await session.perform(.loadNextPage) { !$0.isLoading }
/// try await session.finish()
/// ```
public final class AppSession<Intent: Sendable & Equatable, State: Sendable & Equatable>: Sendable {
  /// The service.
  public let service: any AppService<Intent, State>
  private let recorder: FrontRecorder<Intent>?
  private let cursor: ReplayCursor<Intent>?

  private init(
    service: any AppService<Intent, State>,
    recorder: FrontRecorder<Intent>?,
    cursor: ReplayCursor<Intent>?
  ) {
    self.service = service
    self.recorder = recorder
    self.cursor = cursor
  }

  /// A live session that records nothing.
  public static func live(_ service: any AppService<Intent, State>) -> AppSession {
    AppSession(service: service, recorder: nil, cursor: nil)
  }

  /// A live session recorded by `recorder`, whose middleware (``SessionRecorder/inputs(of:)``)
  /// the service was built with; the session's header is recorded now.
  ///
  /// - Parameters:
  ///   - service: The service, built with the recorder's middleware last.
  ///   - recorder: The recorder.
  ///   - command: The front's command.
  ///   - start: What the service started from (``SessionSchema/Start``).
  /// - Returns: The session.
  public static func recording<Schema: SessionSchema>(
    _ service: any AppService<Intent, State>,
    to recorder: SessionRecorder<Schema>,
    command: String,
    start: Schema.Start
  ) -> AppSession where Schema.Intent == Intent {
    recorder.record(
      .start(
        SessionHeader(
          app: Schema.app,
          architecture: Schema.architecture,
          command: command,
          start: start
        )
      )
    )
    let front = FrontRecorder<Intent>(
      record: { record in
        switch record {
        case .intent(let intent): recorder.record(.intent(intent))
        case .fact(let fact): recorder.record(.fact(fact))
        }
      },
      failures: { recorder.failures },
      path: recorder.url.path
    )
    return AppSession(service: service, recorder: front, cursor: nil)
  }

  /// A session that replays `recording` into `service`, a fresh service built as the recorded
  /// one started (``SessionRecording/header``) with no recorder, through `replayer`.
  ///
  /// `service` must be built with the recording's ``SessionRecording/verifier``'s middleware:
  /// each state the replay reaches is checked against the recording's, and the replay stops
  /// with ``SessionReplayError/diverged(path:reason:)`` at the first that differs.
  ///
  /// - Throws: ``SessionReplayError/diverged(path:reason:)`` when a record does not fit the
  ///   service (a second session start, a reactor's mutation of another type).
  public static func replaying<Schema: SessionSchema>(
    _ service: any AppService<Intent, State>,
    recording: SessionRecording<Schema>,
    replayer: SessionReplayer<Schema>
  ) throws(SessionReplayError) -> AppSession where Schema.Intent == Intent {
    var steps: [ReplayStep<Intent>] = []
    var run: [SessionRecording<Schema>.Entry] = []
    func flush() throws(SessionReplayError) {
      guard let first = run.first else { return }
      do {
        let replay = try replayer.prepare(run)
        steps.append(.inputs(first: first.sequence, count: run.count, replay: replay))
      } catch {
        throw .diverged(path: recording.path, reason: error.reason)
      }
      run = []
    }
    for entry in recording.entries {
      switch entry.input {
      case .input:
        run.append(entry)
      case .intent(let intent):
        try flush()
        steps.append(.front(.intent(intent), sequence: entry.sequence))
      case .fact(let fact):
        try flush()
        steps.append(.front(.fact(fact), sequence: entry.sequence))
      case .check:
        // Checked by the recording's verifier, as the replayed service processes each input.
        continue
      case .start:
        throw .diverged(
          path: recording.path,
          reason: "record #\(entry.sequence) starts another session"
        )
      }
    }
    try flush()
    let cursor = ReplayCursor(path: recording.path, steps: steps, verifier: recording.verifier)
    return AppSession(service: service, recorder: nil, cursor: cursor)
  }

  /// Whether the session replays a recording.
  public var isReplaying: Bool { cursor != nil }

  /// The path of the recording being made or replayed, if any.
  public var recordingPath: String? { cursor?.path ?? recorder?.path }

  /// What the replay did so far: inputs replayed, inputs from elsewhere dropped, effects
  /// skipped; `nil` for a live session.
  public var replayReport: ReplayReport? { cursor?.report }

  /// The records a recording session could not write (empty for other sessions).
  public var recordingFailures: [RecordingWriteError] { recorder?.failures() ?? [] }

  /// Why the recording being made is incomplete, on one line; `nil` while every record was
  /// written.
  public var recordingProblem: String? {
    let failures = recordingFailures
    guard let first = failures.first, let path = recorder?.path else { return nil }
    // A file error in plain words; another (a value that cannot be encoded) as it says itself.
    let reason =
      FileProblem.isFileError(first.underlying)
      ? FileProblem(first.underlying, path: path).reason
      : first.underlying.localizedDescription.split(whereSeparator: \.isNewline)
        .joined(separator: " ")
    let count = failures.count == 1 ? "a record" : "\(failures.count) records"
    return "\(count) could not be written to \(path): \(reason)"
  }

  /// Sends `intent` and returns the first state that satisfies `done`.
  ///
  /// Live, it sends the intent (recording it first) and waits for the state. In a replay, it
  /// checks that the recording sent the same intent here, replays the inputs recorded up to
  /// the front's next record, and returns the state they led to.
  ///
  /// With `finishing`, a live session first waits for the service to finish the intent and the
  /// work it started (``AppService/finish()``), so that `done` is checked on the state the
  /// intent ends in, never on one partway through it: an intent that makes several changes
  /// can be processed by another thread (one reducing an effect's outcome), and the first of
  /// its states may already satisfy `done`. A replay always replays the intent's inputs whole.
  ///
  /// - Throws: ``AppServiceTimeout`` when a live state takes longer than `timeout`;
  ///   ``SessionReplayError/diverged(path:reason:)`` when the recording sent another intent,
  ///   ended, or does not lead to a state that satisfies `done`.
  public func perform(
    _ intent: Intent,
    timeout: Duration = .seconds(60),
    finishing: Bool = false,
    until done: @escaping @Sendable (State) -> Bool
  ) async throws -> State {
    guard let cursor else {
      recorder?.record(.intent(intent))
      service.send(intent)
      if finishing { try await service.finish(timeout: timeout) }
      return try await service.waitForState(timeout: timeout, where: done)
    }
    try await cursor.replayInputs()
    let sequence = try cursor.takeFront(expecting: "the intent \(intent)") { record in
      guard case .intent(let recorded) = record else { return nil }
      return recorded == intent ? .matched : .found("the intent \(recorded)")
    }
    try await cursor.replayInputs()
    let state = service.currentState
    guard done(state) else {
      throw SessionReplayError.diverged(
        path: cursor.path,
        reason: "the inputs recorded after the intent \(intent) (record #\(sequence)) do not "
          + "finish it"
      )
    }
    return state
  }

  /// Reads something from outside the service: live, `live()` (recorded); in a replay, the
  /// recorded value.
  ///
  /// - Parameters:
  ///   - name: What is read: the same name in the recording and the replay.
  ///   - live: Reads it, live only.
  /// - Returns: What was read.
  /// - Throws: ``SessionReplayError/diverged(path:reason:)`` when the recording read another
  ///   thing here, or ended.
  public func fact(
    _ name: String,
    live: () throws -> SessionFact.Value
  ) async throws -> SessionFact.Value {
    guard let cursor else {
      let value = try live()
      recorder?.record(.fact(SessionFact(name: name, value: value)))
      return value
    }
    try await cursor.replayInputs()
    var value = SessionFact.Value.absent
    _ = try cursor.takeFront(expecting: "a read of \(name)") { record in
      guard case .fact(let fact) = record else { return nil }
      guard fact.name == name else { return .found("a read of \(fact.name)") }
      value = fact.value
      return .matched
    }
    try await cursor.replayInputs()
    return value
  }

  /// Reads a line of input: live, `live()` (`nil` at the end of the input); in a replay, the
  /// recorded line.
  public func line(live: () -> String?) async throws -> String? {
    let value = try await fact("line") { live().map(SessionFact.Value.text) ?? .absent }
    switch value {
    case .text(let line): return line
    case .absent: return nil
    default: throw unexpected(value, for: "line")
    }
  }

  /// Reads a yes or no: live, `live()`; in a replay, the recorded answer.
  public func flag(_ name: String, live: () -> Bool) async throws -> Bool {
    let value = try await fact(name) { .flag(live()) }
    guard case .flag(let flag) = value else { throw unexpected(value, for: name) }
    return flag
  }

  /// The error for a recorded fact whose value is not of the kind the front reads.
  public func unexpected(_ value: SessionFact.Value, for name: String) -> SessionReplayError {
    .diverged(
      path: recordingPath ?? "",
      reason: "the recorded \(name) is \(value), which this run cannot read as a \(name)"
    )
  }

  /// Ends the session.
  ///
  /// In a replay, replays the inputs recorded after the front's last record, and returns the
  /// replay's report.
  ///
  /// - Throws: ``SessionReplayError/diverged(path:reason:)`` when the recording goes on (this
  ///   run ended before the recorded one), or a state the replay reached, or did not reach, is
  ///   not the recorded one.
  @discardableResult
  public func finish() async throws -> ReplayReport? {
    guard let cursor else { return nil }
    try await cursor.replayInputs()
    if let sequence = cursor.nextFrontSequence {
      throw SessionReplayError.diverged(
        path: cursor.path,
        reason: "this run ended, and the recording goes on at record #\(sequence)"
      )
    }
    try cursor.verifyEnd()
    return cursor.report
  }

  /// Replays every input of the recording not replayed yet, whatever the front did.
  ///
  /// The service reaches the state the recorded one ended in. Returns the replay's report; `nil`
  /// for a live session.
  ///
  /// For a replay without a front (a test, a tool): ``perform(_:timeout:finishing:until:)`` and
  /// ``fact(_:live:)`` replay the recording turn by turn instead.
  ///
  /// - Throws: ``SessionReplayError/diverged(path:reason:)`` when a state the replay reached, or
  ///   did not reach, is not the recorded one.
  @discardableResult
  public func replayRecording() async throws(SessionReplayError) -> ReplayReport? {
    guard let cursor else { return nil }
    try await cursor.replayAll()
    try cursor.verifyEnd()
    return cursor.report
  }
}

/// What a front records: its intents and facts.
enum FrontRecord<Intent: Sendable>: Sendable {
  case intent(Intent)
  case fact(SessionFact)
}

/// Where a recording session's front records go.
struct FrontRecorder<Intent: Sendable>: Sendable {
  let record: @Sendable (FrontRecord<Intent>) -> Void
  let failures: @Sendable () -> [RecordingWriteError]
  let path: String
}

/// One step of a replay: a record of the front, or a run of inputs the architecture processed.
enum ReplayStep<Intent: Sendable>: Sendable {
  case front(FrontRecord<Intent>, sequence: UInt64)
  case inputs(first: UInt64, count: Int, replay: @Sendable () async -> ReplayReport)
}

/// Where a replay is: the steps, and the next one.
final class ReplayCursor<Intent: Sendable>: Sendable {
  let path: String
  private let steps: [ReplayStep<Intent>]
  private let verifier: StateVerifier
  private let state = LockedValue(Position())

  private struct Position: Sendable {
    var next = 0
    var report = ReplayReport(replayed: 0)
  }

  init(path: String, steps: [ReplayStep<Intent>], verifier: StateVerifier) {
    self.path = path
    self.steps = steps
    self.verifier = verifier
  }

  /// What the replay did so far.
  var report: ReplayReport { state.withLock { $0.report } }

  /// The sequence number of the front's next record, if any is left.
  var nextFrontSequence: UInt64? {
    let next = state.withLock { $0.next }
    guard next < steps.count, case .front(_, let sequence) = steps[next] else { return nil }
    return sequence
  }

  /// Replays the runs of inputs at the cursor, up to the front's next record.
  ///
  /// - Throws: ``SessionReplayError/diverged(path:reason:)`` at the first run that reached a
  ///   state the recording does not hold.
  func replayInputs() async throws(SessionReplayError) {
    while let replay = take(where: {
      if case .inputs(_, _, let replay) = $0 { replay } else { nil }
    }) {
      add(await replay())
      try verify()
    }
  }

  /// Replays every run of inputs left, skipping the front's records.
  ///
  /// - Throws: ``SessionReplayError/diverged(path:reason:)`` at the first run that reached a
  ///   state the recording does not hold.
  func replayAll() async throws(SessionReplayError) {
    while let step = take(where: { $0 }) {
      if case .inputs(_, _, let replay) = step {
        add(await replay())
        try verify()
      }
    }
  }

  /// Throws if a state replayed so far is not the recorded one.
  private func verify() throws(SessionReplayError) {
    if let mismatch = verifier.mismatch { throw .diverged(path: path, reason: mismatch) }
  }

  /// Throws if a state replayed is not the recorded one, or a recorded one was not reached.
  func verifyEnd() throws(SessionReplayError) {
    if let mismatch = verifier.mismatchAtEnd { throw .diverged(path: path, reason: mismatch) }
  }

  /// Takes the front's next record if `matches` accepts it (`true`); otherwise throws, naming
  /// what this run expected and what the recording holds (`matches` describes a record of the
  /// right kind with a `String`, and returns `nil` for the wrong kind).
  func takeFront(
    expecting expected: String,
    matches: (FrontRecord<Intent>) -> MatchResult?
  ) throws(SessionReplayError) -> UInt64 {
    let next = state.withLock { $0.next }
    guard next < steps.count else {
      throw .diverged(path: path, reason: "this run expects \(expected), and the recording ends")
    }
    guard case .front(let record, let sequence) = steps[next] else {
      preconditionFailure("the cursor stops at the front's records only")
    }
    switch matches(record) {
    case .matched?:
      state.withLock { $0.next += 1 }
      return sequence
    case .found(let found)?:
      throw .diverged(
        path: path,
        reason: "record #\(sequence) is \(found), and this run expects \(expected)"
      )
    case nil:
      throw .diverged(
        path: path,
        reason: "record #\(sequence) is \(Self.describe(record)), and this run expects \(expected)"
      )
    }
  }

  private static func describe(_ record: FrontRecord<Intent>) -> String {
    switch record {
    case .intent(let intent): "the intent \(intent)"
    case .fact(let fact): "a read of \(fact.name)"
    }
  }

  /// Takes the step at the cursor if `select` returns something for it.
  private func take<T>(where select: (ReplayStep<Intent>) -> T?) -> T? {
    state.withLock { position in
      guard position.next < steps.count, let selected = select(steps[position.next]) else {
        return nil
      }
      position.next += 1
      return selected
    }
  }

  private func add(_ report: ReplayReport) {
    state.withLock { position in
      position.report.replayed += report.replayed
      position.report.droppedInputs += report.droppedInputs
      position.report.skippedEffects += report.skippedEffects
    }
  }
}

/// What a front's record is to the record a replay expects.
enum MatchResult {
  /// The expected record.
  case matched
  /// A record of the right kind, but another one: described.
  case found(String)
}
