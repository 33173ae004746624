public import CascadeStore
public import CascadeStreams
public import Foundation
import Logging

/// A middleware that records every input to a JSON Lines file or an in-memory buffer, for replay
/// and time travel.
///
/// A file starts with a header line naming the format version (see ``Recording``). Each input
/// then becomes one line: its sequence number in the recording (1, 2, 3, …), the time it was
/// recorded in seconds, and the input as JSON.
///
/// ```
/// {"cascadeRecording":1}
/// {"input":{"add":{"_0":"milk"}},"sequence":1,"time":0}
/// {"input":"checkout","sequence":2,"time":1.25}
/// ```
///
/// Inputs must be `Codable` to be recorded: the compiler rejects a `RecordingMiddleware` over
/// inputs that are not.
///
/// ```swift
/// let recorder = RecordingMiddleware<Action, AppState>(file: url, now: { scheduler.now })
/// let store = Store(initialState: AppState(), middlewares: [logging, recorder], reducer: reduce)
/// // … later, in a fresh store:
/// let recording = try Recording<Action>(contentsOf: url)
/// recording.replay(into: freshStore.send)
/// ```
///
/// **What is recorded.** The recorder records in ``intercept(_:state:)``: every input the
/// architecture is about to reduce — sent from outside, by commands, effects and feedbacks, or
/// dispatched by middlewares — in the order it reduces them. For a reactor these are actions,
/// and, in ``process(_:)``, each mutation they produced (synchronous or asynchronous), on a line
/// of its own with its action (`{"input":…,"mutation":…}`): a replay reduces those mutations
/// without calling `mutate(action:)`. A reactor's `Mutation` must be `Encodable` for that; one
/// that is not is reported to `onError` (``UnencodableMutation``). Put the recorder **last**
/// among the middlewares, so it records inputs as the middlewares before it transformed them
/// and not those they blocked.
///
/// **Time.** `MiddlewareRecord.time` only reaches `Middleware.process(_:)`, so the recorder
/// keeps its own clock: `now`, by default the time elapsed since the recorder was created. Pass
/// `now: { scheduler.now }` to record on the architecture's scheduler clock.
///
/// **States, for the inspector.** ``init(file:append:recordingStates:now:onError:)`` (for a
/// `State` that is `Encodable`) also writes the state after each input — after a reactor's
/// mutation — on a line of its own right after the input's, `{"state":…}`. `cascade-inspect`
/// shows such a file's steps with their states and diffs, and follows it as it grows with
/// `--follow`: inspection of a running app of your own, through nothing but this library.
/// ``Recording`` skips these lines, so the file replays as any other.
///
/// ```swift
/// let recorder = RecordingMiddleware<Action, AppState>(file: url, recordingStates: true)
/// // cascade-inspect --follow session.jsonl
/// ```
///
/// **Failures.** Writing never stops the architecture: a record that cannot be written (the
/// directory does not exist, the disk is full) is lost and reported to `onError` — by default
/// logged at `.error` on a logger labelled `cascade.recording` — and the next record is tried
/// again.
public struct RecordingMiddleware<Input: Codable & Sendable, State: Sendable>: Middleware {
  /// Where records go.
  enum Destination: Sendable {
    case file(JSONLinesFile)
    case buffer(RecordingBuffer)
  }

  private let destination: Destination
  private let encoder = makeLineEncoder()
  private let counter = LockedValue<UInt64>(0)
  private let now: @Sendable () -> SchedulerInstant
  private let onError: @Sendable (RecordingWriteError) -> Void
  /// The state after an input as JSON, when states are recorded.
  private let encodeState: (@Sendable (State) throws -> Data)?

  /// Creates a recorder writing to the JSON Lines file at `url`.
  ///
  /// - Parameters:
  ///   - url: The file; created on the first record, and written into through a symbolic link.
  ///     Only a regular file is written: a device, a pipe or a socket is refused
  ///     (``RecordingFileError``, given to `onError`) and left as it is.
  ///   - append: Whether to keep what the file already holds; by default it is replaced.
  ///   - now: The clock of the records' times; by default the time since this call.
  ///   - onError: Receives each record that could not be written; by default it is logged.
  public init(
    file url: URL,
    append: Bool = false,
    now: (@Sendable () -> SchedulerInstant)? = nil,
    onError: @escaping @Sendable (RecordingWriteError) -> Void = Self.logError
  ) {
    self.init(file: url, append: append, now: now, onError: onError, encodeState: nil)
  }

  /// A recorder writing to the file at `url`, and the states with `encodeState` if not `nil`.
  init(
    file url: URL,
    append: Bool,
    now: (@Sendable () -> SchedulerInstant)?,
    onError: @escaping @Sendable (RecordingWriteError) -> Void,
    encodeState: (@Sendable (State) throws -> Data)?
  ) {
    let header = Data(#"{"cascadeRecording":\#(Recording<Input>.formatVersion)}"#.utf8)
    destination = .file(JSONLinesFile(url: url, append: append, header: header))
    self.now = now ?? Self.elapsedSinceNow()
    self.onError = onError
    self.encodeState = encodeState
  }

  /// Creates a recorder appending to `buffer` in memory.
  ///
  /// - Parameters:
  ///   - buffer: Collects the lines.
  ///   - now: The clock of the records' times; by default the time since this call.
  public init(buffer: RecordingBuffer, now: (@Sendable () -> SchedulerInstant)? = nil) {
    destination = .buffer(buffer)
    self.now = now ?? Self.elapsedSinceNow()
    self.onError = Self.logError
    encodeState = nil
  }

  /// How many inputs were recorded (written or not).
  public var recordedCount: UInt64 { counter.withLock { $0 } }

  /// Records `input` and lets it through unchanged.
  public func intercept(_ input: Input, state: State) -> Input? {
    record(input)
    return input
  }

  /// Records a reactor's mutation (with the action that produced it) — other architectures'
  /// inputs are recorded when intercepted — and, with `recordingStates`, the state after it.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    guard let mutation = record.mutation else {
      // A store's or a loop's input: its line was written when it was intercepted.
      if encodeState != nil { recordState(record.state) }
      return
    }
    guard let encodable = mutation as? any Encodable else {
      let sequence = counter.withLock {
        $0 &+= 1
        return $0
      }
      onError(RecordingWriteError(sequence: sequence, underlying: UnencodableMutation(mutation)))
      return
    }
    self.record(record.input, mutation: encodable)
    if encodeState != nil { recordState(record.state) }
  }

  /// Writes the state after the input (or mutation) whose line was written last: the
  /// architecture processes one input at a time, and calls ``process(_:)`` right after reducing
  /// it, so no other input's line comes between.
  private func recordState(_ state: State) {
    guard let encodeState else { return }
    var line = Data(#"{"state":"#.utf8)
    do {
      line.append(try encodeState(state))
    } catch {
      onError(RecordingWriteError(sequence: recordedCount, underlying: error))
      return
    }
    line.append(UInt8(ascii: "}"))
    var failure: (any Error)?
    let sequence = counter.withLock { counter in
      switch destination {
      case .buffer(let buffer): buffer.append(line)
      case .file(let file):
        do { try file.write(line) } catch { failure = error }
      }
      return counter
    }
    if let failure { onError(RecordingWriteError(sequence: sequence, underlying: failure)) }
  }

  private func record(_ input: Input, mutation: (any Encodable)? = nil) {
    let time = now()
    let encoded: Data
    var encodedMutation: Data?
    do {
      encoded = try encoder.encode(input)
      if let mutation { encodedMutation = try encoder.encode(mutation) }
    } catch {
      let sequence = counter.withLock {
        $0 &+= 1
        return $0
      }
      onError(RecordingWriteError(sequence: sequence, underlying: error))
      return
    }
    // The sequence is taken and the line written in one go, so the lines of a recorder that
    // several threads share stay in sequence order.
    var failure: (any Error)?
    var sequence: UInt64 = 0
    switch destination {
    case .buffer(let buffer):
      counter.withLock { counter in
        counter &+= 1
        sequence = counter
        buffer.append(
          Self.line(sequence: counter, time: time, input: encoded, mutation: encodedMutation)
        )
      }
    case .file(let file):
      counter.withLock { counter in
        counter &+= 1
        sequence = counter
        do {
          try file.write(
            Self.line(sequence: counter, time: time, input: encoded, mutation: encodedMutation)
          )
        } catch {
          failure = error
        }
      }
    }
    if let failure { onError(RecordingWriteError(sequence: sequence, underlying: failure)) }
  }

  /// One record's line (without the newline), keys sorted like the encoder's.
  static func line(
    sequence: UInt64,
    time: SchedulerInstant,
    input: Data,
    mutation: Data? = nil
  ) -> Data {
    recordingLine(sequence: sequence, time: time, input: input, mutation: mutation)
  }

  /// A clock reading the time elapsed since it was made.
  static func elapsedSinceNow() -> @Sendable () -> SchedulerInstant {
    let start = ContinuousClock.now
    return { SchedulerInstant(offset: start.duration(to: .now)) }
  }

  /// Logs `error` at `.error` on a logger labelled `cascade.recording`.
  public static func logError(_ error: RecordingWriteError) {
    Logger(label: "cascade.recording").error("\(error)")
  }
}

extension RecordingMiddleware where State: Encodable {
  /// Creates a recorder writing to the JSON Lines file at `url`, with the state after each input
  /// on a line of its own when `recordingStates` is `true`: what `cascade-inspect` shows, and
  /// follows as the file grows (`cascade-inspect --follow FILE`).
  ///
  /// Each state is encoded as JSON, keys sorted, after each input: a cost per input that a
  /// recorder without states does not pay, and a file that grows by a state per input. Keep it
  /// for debugging sessions.
  ///
  /// - Parameters:
  ///   - url: The file; created on the first record.
  ///   - append: Whether to keep what the file already holds; by default it is replaced.
  ///   - recordingStates: Whether to write the state after each input.
  ///   - now: The clock of the records' times; by default the time since this call.
  ///   - onError: Receives each record that could not be written; by default it is logged.
  public init(
    file url: URL,
    append: Bool = false,
    recordingStates: Bool,
    now: (@Sendable () -> SchedulerInstant)? = nil,
    onError: @escaping @Sendable (RecordingWriteError) -> Void = Self.logError
  ) {
    var encodeState: (@Sendable (State) throws -> Data)?
    if recordingStates {
      let encoder = makeLineEncoder()
      encodeState = { (state: State) throws -> Data in try encoder.encode(state) }
    }
    self.init(file: url, append: append, now: now, onError: onError, encodeState: encodeState)
  }
}

/// One record's line of a recording (without the newline), keys sorted like the encoder's:
/// `{"input":…,"mutation":…,"sequence":…,"time":…}`, without `mutation` when it is `nil`.
func recordingLine(
  sequence: UInt64,
  time: SchedulerInstant,
  input: Data,
  mutation: Data? = nil
) -> Data {
  var line = Data(#"{"input":"#.utf8)
  line.append(input)
  if let mutation {
    line.append(contentsOf: #","mutation":"#.utf8)
    line.append(mutation)
  }
  line.append(contentsOf: #","sequence":\#(sequence),"time":\#(time.offset.seconds)}"#.utf8)
  return line
}

/// A reactor's mutation that is not `Encodable`: a recording of the reactor cannot hold it, and
/// so cannot be replayed.
public struct UnencodableMutation: Error, CustomStringConvertible {
  /// The mutation's type.
  public var type: String

  init(_ mutation: any Sendable) {
    type = String(reflecting: Swift.type(of: mutation))
  }

  /// `mutation of type <T> is not Encodable: …`.
  public var description: String {
    "mutation of type \(type) is not Encodable: make it Codable to record and replay the reactor"
  }
}

/// A record a ``RecordingMiddleware`` could not write.
public struct RecordingWriteError: Error, CustomStringConvertible {
  /// The record's sequence number; the recording lacks it.
  public var sequence: UInt64
  /// What went wrong: the input could not be encoded, or the file could not be written.
  public var underlying: any Error

  /// Creates the error for the record numbered `sequence`.
  public init(sequence: UInt64, underlying: any Error) {
    self.sequence = sequence
    self.underlying = underlying
  }

  /// `record #<sequence> was not written: <underlying>`.
  public var description: String { "record #\(sequence) was not written: \(underlying)" }
}

/// The lines a ``RecordingMiddleware`` recorded in memory.
///
/// ```swift
/// let buffer = RecordingBuffer()
/// let recorder = RecordingMiddleware<Action, AppState>(buffer: buffer)
/// // … run the architecture …
/// let recording = buffer.recording(of: Action.self)
/// ```
public final class RecordingBuffer: Sendable {
  private let storage = LockedValue<[String]>([])

  /// Creates an empty buffer.
  public init() {}

  /// The lines, in the order recorded, without newlines.
  public var lines: [String] { storage.withLock { $0 } }

  /// The lines as the text of a JSON Lines file: each followed by a newline.
  public var jsonLines: String { lines.map { $0 + "\n" }.joined() }

  /// The recording the lines make, read as `Input`s.
  public func recording<Input: Decodable & Sendable>(of type: Input.Type) -> Recording<Input> {
    Recording(jsonLines: jsonLines)
  }

  /// Appends one line.
  func append(_ line: Data) {
    let text = String(decoding: line, as: UTF8.self)
    storage.withLock { $0.append(text) }
  }
}
