public import AppSupport
import CascadeStore
public import Foundation
public import InspectorLink

/// A front's session with the game on `architecture`: live, recorded to `recording` if given,
/// and inspected live through `inspector` if given.
///
/// ```swift
/// let session = makeGameSession(.reactor, saveFile: save, command: "play", recordingTo: url)
/// let state = try await session.perform(.explore) { !$0.isBusy }
/// ```
///
/// - Parameters:
///   - architecture: The architecture to build the game on.
///   - saveFile: Where the game is saved and loaded.
///   - log: Where the seed's ``LoggingMiddleware`` prints ("Leveled Up!").
///   - command: The front's command, recorded in the session's header.
///   - recording: The file to record the session to (created or replaced), or `nil`.
///   - inspector: The live inspection endpoint (`rpg play --inspect`), or `nil`. Its "replay to
///     here" replays into a fresh game that logs nothing and touches no save file.
/// - Returns: The session; its service has no game started.
public func makeGameSession(
  _ architecture: Architecture,
  saveFile: URL,
  log: @escaping @Sendable (String) -> Void = { print($0) },
  command: String,
  recordingTo recording: URL? = nil,
  inspector: LiveInspector? = nil
) -> AppSession<GameIntent, GameState> {
  guard recording != nil || inspector != nil else {
    return .live(makeGame(architecture, saveFile: saveFile, log: log))
  }
  let file = GameFile(url: saveFile)
  switch architecture {
  case .store:
    let recorder = recording.map { SessionRecorder<StoreSession<GameApp>>(file: $0) }
    let live = inspector?.inputs(
      of: GameState.self,
      kind: .event,
      encoding: { StoreGameEvent($0) },
      isEffectOutcome: { event, _ in (event as? Changed)?.change.isEffectOutcome ?? false }
    )
    let game = StoreGame(
      file: file,
      log: log,
      middlewares: present(
        live,
        recorder?.inputs(of: GameState.self, encoding: StoreGameEvent.init)
      )
    )
    if let live { inspector?.replays(live) { StoreGame(file: file, log: { _ in }).core } }
    guard let recorder else { return .live(game) }
    return .recording(game, to: recorder, command: command, start: SessionNoStart())
  case .reactor:
    let recorder = recording.map { SessionRecorder<ReactorSession<GameApp>>(file: $0) }
    let live = inspector?.inputs(
      of: GameState.self,
      kind: .action,
      isEffectOutcome: { (_: GameIntent, mutation) in
        (mutation as? GameChange)?.isEffectOutcome ?? false
      }
    )
    let game = ReactorGame(
      file: file,
      log: log,
      middlewares: present(live, recorder?.inputs(of: GameState.self))
    )
    if let live { inspector?.replays(live) { ReactorGame(file: file, log: { _ in }) } }
    guard let recorder else { return .live(game) }
    return .recording(game, to: recorder, command: command, start: SessionNoStart())
  case .feedback:
    let recorder = recording.map { SessionRecorder<FeedbackSession<GameApp>>(file: $0) }
    let live = inspector?.inputs(
      of: FeedbackGameMachine.self,
      kind: .event,
      isEffectOutcome: { (event: FeedbackGameEvent, _) in
        if case .finished = event { true } else { false }
      }
    )
    let game = FeedbackGame(
      file: file,
      log: log,
      middlewares: present(live, recorder?.inputs(of: FeedbackGameMachine.self))
    )
    if let live { inspector?.replays(live) { FeedbackGame(file: file, log: { _ in }).loop } }
    guard let recorder else { return .live(game) }
    return .recording(game, to: recorder, command: command, start: SessionNoStart())
  }
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
///   - log: Where the seed's ``LoggingMiddleware`` prints ("Leveled Up!").
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
  let file = GameFile(url: saveFile)
  switch architecture {
  case .store:
    let recording = try SessionRecording<StoreSession<GameApp>>(contentsOf: url, command: command)
    let game = StoreGame(
      file: file,
      log: log,
      middlewares: [recording.verifier.middleware(of: GameState.self)]
    )
    return try .replaying(game, recording: recording, replayer: .store(game.core, decode: \.event))
  case .reactor:
    let recording = try SessionRecording<ReactorSession<GameApp>>(contentsOf: url, command: command)
    let game = ReactorGame(
      file: file,
      log: log,
      middlewares: [recording.verifier.middleware(of: GameState.self)]
    )
    return try .replaying(game, recording: recording, replayer: .reactor(game))
  case .feedback:
    let recording = try SessionRecording<FeedbackSession<GameApp>>(
      contentsOf: url,
      command: command
    )
    let game = FeedbackGame(
      file: file,
      log: log,
      middlewares: [recording.verifier.middleware(of: FeedbackGameMachine.self)]
    )
    return try .replaying(game, recording: recording, replayer: .loop(game.loop))
  }
}

/// The RPG as its session recordings see it.
enum GameApp: SessionApp {
  typealias Intent = GameIntent
  typealias Start = SessionNoStart
  /// The store's events, recorded as ``StoreGameEvent``s.
  typealias StoreInput = StoreGameEvent
  /// The reactor's actions, with their mutations.
  typealias ReactorInput = GameIntent
  /// The feedback loop's events.
  typealias FeedbackInput = FeedbackGameEvent
  static var name: String { "rpg" }
}
