public import CascadeMiddleware
public import CascadeStore
import CascadeStreams
public import Foundation

/// Records a session to a JSON Lines file: the architecture's inputs through a middleware
/// (``inputs(of:)``), and the front's records (``record(_:)``), in the order they happen.
///
/// It writes with `CascadeMiddleware.RecordingMiddleware`, so the file is a recording of that
/// format (a `{"cascadeRecording":1}` header line, then one line per record) whose inputs are
/// ``SessionRecord``s. A record that cannot be written does not stop the session: it is kept in
/// ``failures``, for the front to report.
///
/// ```swift
/// let recorder = SessionRecorder<StoreSession<MoviesApp>>(file: url)
/// let movies = StoreMovies(source: client, middlewares: [recorder.inputs(of: MoviesState.self)])
/// ```
public final class SessionRecorder<Schema: SessionSchema>: Sendable {
  /// The file.
  public let url: URL
  private let recorder: RecordingMiddleware<SessionRecord<Schema>, NoState>
  private let lost: LockedValue<[RecordingWriteError]>

  /// Creates a recorder writing to `url`; the file is created, or emptied, by the first record.
  public init(file url: URL) {
    let lost = LockedValue<[RecordingWriteError]>([])
    self.url = url
    self.lost = lost
    recorder = RecordingMiddleware(
      file: url,
      onError: { error in lost.withLock { $0.append(error) } }
    )
  }

  /// The records that could not be written (the file could not be created, the disk is full),
  /// or inputs that cannot be recorded.
  public var failures: [RecordingWriteError] { lost.withLock { $0 } }

  /// Records a record of the front, after every record before it.
  public func record(_ record: SessionRecord<Schema>) {
    _ = recorder.intercept(record, state: NoState())
  }

  /// The middleware that records every input the architecture processes (and a reactor's
  /// mutations), each followed by the ``StateCheck`` of the state after it: put it **last** among
  /// the architecture's middlewares.
  public func inputs<State: Encodable & Sendable>(
    of state: State.Type
  ) -> some Middleware<Schema.Input, State> {
    InputRecorder<Schema, Schema.Input, State>(recorder: self, encode: { $0 })
  }

  /// The middleware that records every input the architecture processes, converted by `encode`,
  /// each followed by the ``StateCheck`` of the state after it.
  ///
  /// For an architecture whose inputs are not `Codable` themselves (a `Core`'s `any CoreEvent`). An
  /// input `encode` returns `nil` for is not recorded, and is reported in ``failures``. Put it
  /// **last** among the architecture's middlewares.
  public func inputs<Input: Sendable, State: Encodable & Sendable>(
    of state: State.Type,
    encoding encode: @escaping @Sendable (Input) -> Schema.Input?
  ) -> some Middleware<Input, State> {
    InputRecorder<Schema, Input, State>(recorder: self, encode: encode)
  }

  /// Records an input the architecture is about to process.
  fileprivate func recordInput(_ input: Schema.Input) {
    _ = recorder.intercept(.input(input), state: NoState())
  }

  /// Records the check of `value`: the state after the input (or mutation) recorded last, or what
  /// the session started from.
  func recordCheck(of value: some Encodable) {
    do {
      record(.check(try StateCheck(of: value)))
    } catch {
      lost.withLock { $0.append(RecordingWriteError(sequence: 0, underlying: error)) }
    }
  }

  /// Records a reactor's mutation, with the action that produced it.
  fileprivate func recordMutation(
    _ mutation: any Sendable,
    of action: Schema.Input,
    sequence: UInt64,
    time: SchedulerInstant
  ) {
    recorder.process(
      MiddlewareRecord(
        input: .input(action),
        mutation: mutation,
        state: NoState(),
        sequence: sequence,
        time: time,
        dispatcher: .none
      )
    )
  }

  /// Notes an input that could not be recorded.
  fileprivate func lose(_ input: some Sendable) {
    let error = RecordingWriteError(
      sequence: 0,
      underlying: UnrecordableInput(type: String(reflecting: type(of: input)))
    )
    lost.withLock { $0.append(error) }
  }
}

/// The state the underlying recorder is given: it records inputs, not states.
private struct NoState: Sendable {}

/// An input the session's schema has no record for.
public struct UnrecordableInput: Error, CustomStringConvertible {
  /// The input's type.
  public var type: String

  /// `an input of type <T> cannot be recorded`.
  public var description: String { "an input of type \(type) cannot be recorded" }
}

/// Records each input an architecture processes into a ``SessionRecorder``, and each mutation of
/// a reactor.
private struct InputRecorder<Schema: SessionSchema, Input: Sendable, State: Encodable & Sendable>:
  Middleware
{
  let recorder: SessionRecorder<Schema>
  let encode: @Sendable (Input) -> Schema.Input?

  func intercept(_ input: Input, state: State) -> Input? {
    if let recorded = encode(input) {
      recorder.recordInput(recorded)
    } else {
      recorder.lose(input)
    }
    return input
  }

  /// Records a reactor's mutation (with its action), then the check of the state after the
  /// input or mutation.
  func process(_ record: MiddlewareRecord<Input, State>) {
    if let mutation = record.mutation, let action = encode(record.input) {
      recorder.recordMutation(mutation, of: action, sequence: record.sequence, time: record.time)
    }
    recorder.recordCheck(of: record.state)
  }
}

/// The middlewares given, in order, without those that are `nil`: a service's optional
/// observers (a session recorder, a live inspector), each present only when asked for.
///
/// ```swift
/// let game = ReactorGame(file: file, log: log, middlewares: present(live, recorder?.inputs(of: GameState.self)))
/// ```
public func present<Input: Sendable, State: Sendable>(
  _ middlewares: (any Middleware<Input, State>)?...
) -> [any Middleware<Input, State>] {
  middlewares.compactMap { $0 }
}
