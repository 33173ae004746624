public import AppSupport
import CascadeStore
public import Foundation
public import InspectorLink

/// A front's session with the game on `architecture`: live, recorded to `recording` if given,
/// inspected live through `inspector` if given, and kept by `flightRecorder` if given.
///
/// ```swift
/// let session = makeGameSession(.reactor, saveFile: save, command: "play", recordingTo: url)
/// let state = try await session.perform(.explore) { !$0.isBusy }
/// ```
///
/// - Parameters:
///   - architecture: The architecture to build the game on.
///   - saveFile: Where the game is saved and loaded.
///   - log: Where the ``LevelUpAnnouncer`` prints ("Leveled Up!").
///   - command: The front's command, recorded in the session's header.
///   - recording: The file to record the session to (created or replaced), or `nil`.
///   - inspector: The live inspection endpoint (`rpg play --inspect`), or `nil`. Its "replay to
///     here" replays into a fresh game that logs nothing and touches no save file.
///   - flightRecorder: The flight recorder (`rpg play --flight-recorder FILE`), or `nil`.
/// - Returns: The session; its service has no game started.
public func makeGameSession(
  _ architecture: Architecture,
  saveFile: URL,
  log: @escaping @Sendable (String) -> Void = { print($0) },
  command: String,
  recordingTo recording: URL? = nil,
  inspector: LiveInspector? = nil,
  flightRecorder: FlightObserver? = nil
) -> AppSession<GameIntent, GameState> {
  let file = GameFile(url: saveFile)
  return GameApp.session(
    architecture,
    GameApp.Environment(file: file, log: log),
    offline: { _ in GameApp.Environment(file: file, log: { _ in }) },
    start: SessionNoStart(),
    command: command,
    recordingTo: recording,
    observers: (inspector.map { [$0] } ?? []) + (flightRecorder.map { [$0] } ?? [])
  )
}

/// A session that replays the recording at `url` into a fresh game on `architecture`: the
/// recorded states, and no effect (the save file is neither read nor written).
///
/// ```swift
/// let session = try replayGameSession(.reactor, saveFile: save, contentsOf: url, command: "play")
/// await session.replayRecording()  // or drive it turn by turn, as the front did
/// ```
///
/// - Parameters:
///   - architecture: The architecture the recording was made on.
///   - saveFile: The save file the front names (the replay does not use it).
///   - log: Where the ``LevelUpAnnouncer`` prints ("Leveled Up!").
///   - url: The recording.
///   - command: The front's command: the recorded one.
/// - Returns: The session, which has replayed nothing yet.
/// - Throws: ``SessionReplayError`` when the recording is missing, unreadable, damaged, or of
///   another app, architecture or command.
public func replayGameSession(
  _ architecture: Architecture,
  saveFile: URL,
  log: @escaping @Sendable (String) -> Void = { print($0) },
  contentsOf url: URL,
  command: String
) throws(SessionReplayError) -> AppSession<GameIntent, GameState> {
  let environment = GameApp.Environment(file: GameFile(url: saveFile), log: log)
  return try GameApp.replay(architecture, contentsOf: url, command: command) { _ in environment }
}

/// A Swift Testing source file that replays the game's recording at `url` through the
/// exhaustive `TestStore` of the architecture that made it, step by step, its saves and loads
/// answered with their recorded outcomes (see `RecordingTestBlueprint.recordingTest`).
///
/// - Parameters:
///   - url: A recording made with `rpg play --record`.
///   - suite: The test suite's name.
///   - generator: The command that makes the file, named in its header.
/// - Returns: The source file.
/// - Throws: `RecordingTestError` when the recording cannot be read or replayed.
public func gameRecordingTest(
  contentsOf url: URL,
  suite: String,
  generator: String
) async throws(RecordingTestError) -> String {
  try await GameApp.recordingTest(contentsOf: url, suite: suite, generator: generator)
}

/// The RPG as its session recordings see it.
enum GameApp: SessionBlueprint {
  typealias Intent = GameIntent
  typealias State = GameState
  typealias Start = SessionNoStart
  /// The store's events, recorded as ``StoreGameEvent``s.
  typealias StoreInput = StoreGameEvent
  /// The reactor's actions, with their mutations.
  typealias ReactorInput = GameIntent
  /// The feedback loop's events.
  typealias FeedbackInput = FeedbackGameEvent
  static var name: String { "rpg" }

  /// What a game is made from.
  struct Environment: Sendable {
    /// The save file.
    var file: GameFile
    /// Where the ``LevelUpAnnouncer`` prints ("Leveled Up!").
    var log: @Sendable (String) -> Void
  }

  /// The game on a store: its events recorded as ``StoreGameEvent``s.
  static var store: ArchitectureBuild<Environment, StoreSession<GameApp>, StoreGame> {
    ArchitectureBuild(
      encode: StoreGameEvent.init,
      decode: \.event,
      isEffectOutcome: { event, _ in (event as? Changed)?.change.isEffectOutcome ?? false }
    ) { environment, middlewares in
      StoreGame(file: environment.file, log: environment.log, middlewares: middlewares)
    }
    .restoring { environment, state in
      StoreGame(file: environment.file, log: environment.log, initialState: state)
    }
  }

  /// The game on a reactor.
  static var reactor: ArchitectureBuild<Environment, ReactorSession<GameApp>, ReactorGame> {
    ArchitectureBuild(
      isEffectOutcome: { _, mutation in (mutation as? GameChange)?.isEffectOutcome ?? false }
    ) { environment, middlewares in
      ReactorGame(file: environment.file, log: environment.log, middlewares: middlewares)
    }
    .restoring { environment, state in
      ReactorGame(file: environment.file, log: environment.log, initialState: state)
    }
  }

  /// The game on a feedback loop.
  static var feedback: ArchitectureBuild<Environment, FeedbackSession<GameApp>, FeedbackGame> {
    ArchitectureBuild(
      isEffectOutcome: { event, _ in if case .finished = event { true } else { false } }
    ) { environment, middlewares in
      FeedbackGame(file: environment.file, log: environment.log, middlewares: middlewares)
    }
    .restoring { environment, state in
      FeedbackGame(
        file: environment.file,
        log: environment.log,
        initialState: state,
        reacting: false,
        middlewares: []
      )
    }
  }
}

extension GameApp: RecordingTestBlueprint {
  /// A save's or a load's outcome.
  typealias EffectOutcome = GameChange

  /// A game whose save file is never touched: its saves and loads get the recorded outcomes.
  static func testEnvironment(
    start: SessionNoStart,
    effects: RecordedEffects<GameChange>
  )
    -> Environment
  {
    Environment(file: GameFile(recorded: effects), log: { _ in })
  }

  /// The change that a save's or a load's outcome carries.
  ///
  /// It is a store's ``Changed`` event, a reactor's mutation, or a loop's `finished` event.
  /// Saves and loads run one at a time: no key.
  static func effectOutcome(
    of input: any Sendable,
    mutation: (any Sendable)?
  )
    -> (key: Int?, outcome: GameChange)?
  {
    if let change = mutation as? GameChange { return (nil, change) }
    if let changed = input as? Changed { return (nil, changed.change) }
    if case .finished(let change)? = input as? FeedbackGameEvent { return (nil, change) }
    return nil
  }
}
