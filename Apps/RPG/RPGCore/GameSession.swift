public import AppSupport
import CascadeStore
public import Foundation

/// A front's session with the game on `architecture`: live, and recorded to `recording` if given.
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
/// - Returns: The session; its service has no game started.
public func makeGameSession(
  _ architecture: Architecture,
  saveFile: URL,
  log: @escaping @Sendable (String) -> Void = { print($0) },
  command: String,
  recordingTo recording: URL? = nil
) -> AppSession<GameIntent, GameState> {
  guard let recording else {
    return .live(makeGame(architecture, saveFile: saveFile, log: log))
  }
  let file = GameFile(url: saveFile)
  switch architecture {
  case .store:
    let recorder = SessionRecorder<StoreSession<GameApp>>(file: recording)
    let game = StoreGame(
      file: file,
      log: log,
      middlewares: [recorder.inputs(of: GameState.self, encoding: StoreGameEvent.init)]
    )
    return .recording(game, to: recorder, command: command, start: SessionNoStart())
  case .reactor:
    let recorder = SessionRecorder<ReactorSession<GameApp>>(file: recording)
    let game = ReactorGame(
      file: file,
      log: log,
      middlewares: [recorder.inputs(of: GameState.self)]
    )
    return .recording(game, to: recorder, command: command, start: SessionNoStart())
  case .feedback:
    let recorder = SessionRecorder<FeedbackSession<GameApp>>(file: recording)
    let game = FeedbackGame(
      file: file,
      log: log,
      middlewares: [recorder.inputs(of: FeedbackGameMachine.self)]
    )
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
    let game = StoreGame(file: file, log: log)
    return try .replaying(game, recording: recording, replayer: .store(game.core, decode: \.event))
  case .reactor:
    let recording = try SessionRecording<ReactorSession<GameApp>>(contentsOf: url, command: command)
    let game = ReactorGame(file: file, log: log)
    return try .replaying(game, recording: recording, replayer: .reactor(game))
  case .feedback:
    let recording = try SessionRecording<FeedbackSession<GameApp>>(
      contentsOf: url,
      command: command
    )
    let game = FeedbackGame(file: file, log: log)
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
