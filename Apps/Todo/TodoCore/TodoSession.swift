public import AppSupport
public import Foundation
public import InspectorLink

/// A front's session with the task list on `architecture`, over `database`: live, recorded to
/// `recording` if given, and inspected live through `inspector` if given.
///
/// A recording starts with the state the service read from the database, so that a replay
/// starts from it without opening any database. An inspector is given every input with the state
/// after it, and replays to a step into a fresh task list with no database.
///
/// ```swift
/// let session = makeTodoSession(.store, database: database, command: "add", recordingTo: url)
/// let state = try await session.perform(.add(title: "Buy milk"))
/// ```
///
/// - Parameters:
///   - architecture: The architecture to build the service on.
///   - database: The database.
///   - command: The front's command, recorded in the session's header.
///   - recording: The file to record the session to (created or replaced), or `nil`.
///   - inspector: The live inspection endpoint (`todo --inspect`), or `nil`.
/// - Returns: The session; its service shows what the database holds now.
public func makeTodoSession(
  _ architecture: Architecture,
  database: TodoDatabase,
  command: String,
  recordingTo recording: URL? = nil,
  inspector: LiveInspector? = nil
) -> AppSession<TodoIntent, TodoState> {
  let start = TodoState(loadingFrom: database)
  return TodoApp.session(
    architecture,
    TodoApp.Environment(writes: database, start: start),
    offline: { .offline($0) },
    start: start,
    command: command,
    recordingTo: recording,
    observers: inspector.map { [$0] } ?? []
  )
}

/// A session that replays the recording at `url` into a fresh task list on `architecture`,
/// started from the recorded state: the recorded states, and no effect — the service has no
/// database, and the outcome of every recorded write is replayed instead.
///
/// ```swift
/// let session = try replayTodoSession(.store, contentsOf: url, command: "add")
/// await session.replayRecording()  // or drive it turn by turn, as the front did
/// ```
///
/// - Parameters:
///   - architecture: The architecture the recording was made on.
///   - url: The recording.
///   - command: The front's command: the recorded one.
/// - Returns: The session, which has replayed nothing yet.
/// - Throws: ``SessionReplayError`` when the recording is missing, unreadable, damaged, or of
///   another app, architecture or command.
public func replayTodoSession(
  _ architecture: Architecture,
  contentsOf url: URL,
  command: String
) throws(SessionReplayError) -> AppSession<TodoIntent, TodoState> {
  try TodoApp.replay(
    architecture,
    contentsOf: url,
    command: command,
    offline: { .offline($0) }
  )
}

extension AppSession where Intent == TodoIntent, State == TodoState {
  /// Sends `intent`, then waits until it has been handled and every write has finished, and
  /// returns that state (see `AppService.perform(_:timeout:)`).
  ///
  /// - Throws: ``AppServiceTimeout`` when that does not happen within `timeout`;
  ///   ``SessionReplayError`` when a replayed recording does not match.
  @discardableResult
  public func perform(
    _ intent: TodoIntent,
    timeout: Duration = .seconds(30)
  ) async throws -> TodoState {
    let handled = service.currentState.intentsHandled + 1
    return try await perform(intent, timeout: timeout) {
      $0.intentsHandled >= handled && $0.isIdle
    }
  }
}

/// A Swift Testing source file that replays the task list's recording at `url` through the
/// exhaustive `TestStore` of the architecture that made it, step by step, from the recorded
/// list, each write answered with its recorded result (see
/// `RecordingTestBlueprint.recordingTest`).
///
/// - Parameters:
///   - url: A recording made with `todo … --record`.
///   - suite: The test suite's name.
///   - generator: The command that makes the file, named in its header.
/// - Returns: The source file.
/// - Throws: `RecordingTestError` when the recording cannot be read or replayed.
public func todoRecordingTest(
  contentsOf url: URL,
  suite: String,
  generator: String
) async throws(RecordingTestError) -> String {
  try await TodoApp.recordingTest(contentsOf: url, suite: suite, generator: generator)
}

/// The task list as its session recordings see it.
enum TodoApp: SessionBlueprint {
  typealias Intent = TodoIntent
  typealias State = TodoState
  typealias Start = TodoState
  /// The store's events.
  typealias StoreInput = TodoEvent
  /// The reactor's actions, with their mutations.
  typealias ReactorInput = TodoIntent
  /// The feedback loop's events.
  typealias FeedbackInput = TodoEvent
  static var name: String { "todo" }

  /// What a task list is made from.
  struct Environment: Sendable {
    /// Where the writes go.
    var writes: any TodoWrites
    /// The state it starts from.
    var start: TodoState

    /// A task list that starts from `start` and writes nowhere: a replay's.
    static func offline(_ start: TodoState) -> Self {
      Self(writes: NoTodoWrites(), start: start)
    }
  }

  /// The task list on a store.
  static var store: ArchitectureBuild<Environment, StoreSession<TodoApp>, StoreTodo> {
    ArchitectureBuild(isEffectOutcome: { event, _ in event.isWritten }) {
      StoreTodo(writes: $0.writes, initialState: $0.start, middlewares: $1)
    }
    .restoring { StoreTodo(writes: $0.writes, initialState: $1, middlewares: []) }
  }

  /// The task list on a reactor.
  static var reactor: ArchitectureBuild<Environment, ReactorSession<TodoApp>, ReactorTodo> {
    ArchitectureBuild(
      isEffectOutcome: { _, mutation in (mutation as? TodoEvent)?.isWritten ?? false }
    ) { ReactorTodo(writes: $0.writes, initialState: $0.start, middlewares: $1) }
    .restoring { ReactorTodo(writes: $0.writes, initialState: $1, middlewares: []) }
  }

  /// The task list on a feedback loop.
  static var feedback: ArchitectureBuild<Environment, FeedbackSession<TodoApp>, FeedbackTodo> {
    ArchitectureBuild(isEffectOutcome: { event, _ in event.isWritten }) {
      FeedbackTodo(writes: $0.writes, initialState: $0.start, middlewares: $1)
    }
    .restoring { FeedbackTodo(writes: $0.writes, initialState: $1, reacting: false) }
  }
}

extension RecordReducer where State == TodoState {
  /// The task list as a session recording made on `architecture` drives it, from `start` (the
  /// list the session began with, its header's `start`), with no write: the store's and the
  /// loop's recorded events, or the reactor's recorded mutations, reduced as the service
  /// reduces them.
  ///
  /// ```swift
  /// var machine = RecordReducer.todo(.store, start: start)
  /// try machine.apply(recordLine: line)
  /// ```
  public static func todo(_ architecture: Architecture, start: TodoState) -> Self {
    let key = "\(TodoApp.name).\(architecture.rawValue)"
    switch architecture {
    case .store, .feedback:
      return .inputs(
        TodoEvent.self,
        of: key,
        initial: start,
        reduce: { state, event in state.reduce(event) },
        isEffectOutcome: \.isWritten
      )
    case .reactor:
      return .mutations(
        TodoEvent.self,
        of: key,
        initial: start,
        reduce: { state, event in state.reduce(event) },
        isEffectOutcome: \.isWritten
      )
    }
  }
}

extension TodoApp: RecordingTestBlueprint {
  /// A write's result.
  typealias EffectOutcome = TodoWriteResult

  /// The recorded list, and writes answered from the recording: no database.
  static func testEnvironment(
    start: TodoState,
    effects: RecordedEffects<TodoWriteResult>
  )
    -> Environment
  {
    Environment(writes: RecordedTodoWrites(effects: effects), start: start)
  }

  /// The result that a write's outcome carries, keyed by the write's id: a store's or a loop's
  /// event, or a reactor's mutation.
  static func effectOutcome(
    of input: any Sendable,
    mutation: (any Sendable)?
  )
    -> (key: Int?, outcome: TodoWriteResult)?
  {
    guard case .written(let result)? = (mutation as? TodoEvent) ?? (input as? TodoEvent) else {
      return nil
    }
    return (result.writeID, result)
  }
}
