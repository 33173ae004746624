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
  guard recording != nil || inspector != nil else {
    return .live(makeTodo(architecture, database: database))
  }
  let start = TodoState(loadingFrom: database)
  switch architecture {
  case .store:
    let recorder = recording.map { SessionRecorder<StoreSession<TodoApp>>(file: $0) }
    let live = inspector?.inputs(
      of: TodoState.self,
      kind: .event,
      isEffectOutcome: { (event: TodoEvent, _) in event.isWritten }
    )
    let middlewares = present(live, recorder?.inputs(of: TodoState.self))
    let todo = StoreTodo(writes: database, initialState: start, middlewares: middlewares)
    if let live {
      inspector?.replays(live) { StoreTodo(writes: NoTodoWrites(), initialState: start).store }
    }
    guard let recorder else { return .live(todo) }
    return .recording(todo, to: recorder, command: command, start: start)
  case .reactor:
    let recorder = recording.map { SessionRecorder<ReactorSession<TodoApp>>(file: $0) }
    let live = inspector?.inputs(
      of: TodoState.self,
      kind: .action,
      isEffectOutcome: { (_: TodoIntent, mutation) in (mutation as? TodoEvent)?.isWritten ?? false }
    )
    let middlewares = present(live, recorder?.inputs(of: TodoState.self))
    let todo = ReactorTodo(writes: database, initialState: start, middlewares: middlewares)
    if let live {
      inspector?.replays(live) { ReactorTodo(writes: NoTodoWrites(), initialState: start).reactor }
    }
    guard let recorder else { return .live(todo) }
    return .recording(todo, to: recorder, command: command, start: start)
  case .feedback:
    let recorder = recording.map { SessionRecorder<FeedbackSession<TodoApp>>(file: $0) }
    let live = inspector?.inputs(
      of: TodoState.self,
      kind: .event,
      isEffectOutcome: { (event: TodoEvent, _) in event.isWritten }
    )
    let middlewares = present(live, recorder?.inputs(of: TodoState.self))
    let todo = FeedbackTodo(writes: database, initialState: start, middlewares: middlewares)
    if let live {
      inspector?.replays(live) { FeedbackTodo(writes: NoTodoWrites(), initialState: start).loop }
    }
    guard let recorder else { return .live(todo) }
    return .recording(todo, to: recorder, command: command, start: start)
  }
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
  switch architecture {
  case .store:
    let recording = try SessionRecording<StoreSession<TodoApp>>(contentsOf: url, command: command)
    let todo = StoreTodo(
      writes: NoTodoWrites(),
      initialState: recording.header.start,
      middlewares: [recording.verifier.middleware(of: TodoState.self)]
    )
    return try .replaying(todo, recording: recording, replayer: .store(todo.store))
  case .reactor:
    let recording = try SessionRecording<ReactorSession<TodoApp>>(contentsOf: url, command: command)
    let todo = ReactorTodo(
      writes: NoTodoWrites(),
      initialState: recording.header.start,
      middlewares: [recording.verifier.middleware(of: TodoState.self)]
    )
    return try .replaying(todo, recording: recording, replayer: .reactor(todo.reactor))
  case .feedback:
    let recording = try SessionRecording<FeedbackSession<TodoApp>>(
      contentsOf: url,
      command: command
    )
    let todo = FeedbackTodo(
      writes: NoTodoWrites(),
      initialState: recording.header.start,
      middlewares: [recording.verifier.middleware(of: TodoState.self)]
    )
    return try .replaying(todo, recording: recording, replayer: .loop(todo.loop))
  }
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

/// The task list as its session recordings see it.
enum TodoApp: SessionApp {
  typealias Intent = TodoIntent
  typealias Start = TodoState
  /// The store's events.
  typealias StoreInput = TodoEvent
  /// The reactor's actions, with their mutations.
  typealias ReactorInput = TodoIntent
  /// The feedback loop's events.
  typealias FeedbackInput = TodoEvent
  static var name: String { "todo" }
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
