import AppSupport
import ArgumentParser
import CascadeStreams
import CommandLineSupport
import Foundation
import InspectorLink
import RPGCore

/// A game service and what the command line shows of it.
///
/// Text output shows what the player typed (a name) with control characters escaped, one line
/// per line; `--json` keeps it exact. Everything goes through `StandardOutput`, which ends the
/// program quietly with status 74 when standard output is closed.
final class Session {
  let options: GameOptions
  /// The session with the game: live, recorded or replayed.
  let app: AppSession<GameIntent, GameState>
  /// The game.
  var game: any AppService<GameIntent, GameState> { app.service }
  /// The messages of the changes since the last turn was printed.
  private let messages = LockedValue<[String]>([])
  private let subscription: any Disposable

  /// A session of `command`: live, recorded with `--record`, or replayed with `--replay`.
  ///
  /// - Throws: `ExitCode` after printing why, when the recording cannot be replayed or created.
  convenience init(
    options: GameOptions,
    recording: RecordingOptions,
    command: String,
    inspector: LiveInspector? = nil,
    flightRecorder: FlightObserver? = nil
  ) throws {
    try self.init(options: options) { log in
      try recording.session(
        options: options,
        log: log,
        command: command,
        inspector: inspector,
        flightRecorder: flightRecorder
      )
    }
  }

  private init(
    options: GameOptions,
    session: (@escaping @Sendable (String) -> Void) throws -> AppSession<GameIntent, GameState>
  ) rethrows {
    self.options = options
    let json = options.json
    let messages = messages
    // The seed's logging middleware ("Leveled Up!") speaks in order with the turn's messages:
    // on every architecture it runs after the input is reduced and before the state reaches
    // the subscription below.
    app = try session { line in if !json { messages.withLock { $0.append(line) } } }
    let seen = LockedValue(0)
    subscription = app.service.states.subscribe(onNext: { state in
      let isNew = seen.withLock { count in
        defer { count = max(count, state.changes) }
        return state.changes > count
      }
      if isNew { messages.withLock { $0.append(state.message) } }
    })
  }

  deinit {
    subscription.dispose()
  }

  /// Sends `intent` and waits until the game has finished it: all the changes it makes applied
  /// and their messages taken, its save or load done.
  ///
  /// An intent makes several changes (an attack, then a level-up), and when another thread (a
  /// save finishing) is processing the game's inputs, that thread applies them while this one
  /// waits: a state partway through the intent must not end the wait, or this turn would print
  /// without the rest of its messages and the next turn with them. So the wait is for the
  /// service to finish; the state is then checked to have grown (``GameState/changes``) and to
  /// be idle.
  @discardableResult
  func perform(_ intent: GameIntent) async throws -> GameState {
    let before = game.currentState.changes
    return try await app.perform(intent, finishing: true) { $0.changes > before && !$0.isBusy }
  }

  /// Loads the save file; a missing, corrupt or newer save is a failure.
  ///
  /// - Throws: ``Failure``: status 66 for no save (or one that cannot be read), 65 for a corrupt
  ///   one or one from a newer version.
  func loadOrFail() async throws {
    let state = try await perform(.load)
    if let error = state.saveError {
      throw loadFailure(error)
    }
    takeMessages()
  }

  /// Loads the save file if there is one; a corrupt or newer one is a failure.
  ///
  /// - Throws: ``Failure``, as ``loadOrFail()``.
  func loadIfPresent() async throws {
    let saveURL = options.saveURL
    guard try await app.flag("saveExists", live: { GameFile(url: saveURL).exists }) else {
      if !options.json { say(noSavedGame) }
      return
    }
    let state = try await perform(.load)
    switch state.saveError {
    case nil:
      break
    case .missing:
      if !options.json { say(noSavedGame) }
    case let error?:
      throw loadFailure(error)
    }
    takeMessages()
  }

  private var noSavedGame: String {
    "No saved game at \(options.savePathText). Type `new NAME [SEED]` to start one."
  }

  /// The failure of a load that failed with `error`.
  private func loadFailure(_ error: SaveError) -> Failure {
    let path = options.savePathText
    switch error {
    case .missing:
      return Failure(
        "there is no saved game at \(path); start one with `rpg new --name NAME`",
        status: .noInput
      )
    case .corrupt, .newerVersion:
      return Failure(
        "cannot load the game from \(path): \(error). The file was left as it is; "
          + "`rpg new --force` starts a new game in its place",
        status: .dataError
      )
    case .io:
      return Failure("cannot load the game from \(path): \(error)", status: .noInput)
    }
  }

  /// Saves the game; a failure to save is a failure of the command.
  ///
  /// - Throws: ``Failure``: status 74 when the file cannot be written, 65 when it holds a
  ///   corrupt save or one from a newer version that `overwrite` does not allow to replace.
  func saveOrFail(overwrite: Bool) async throws {
    let state = try await perform(.save(overwrite: overwrite))
    guard let error = state.saveError else { return }
    let path = options.savePathText
    if error.isUnreadableSave {
      throw Failure(
        "cannot save the game to \(path): \(error). The file was left as it is, and this game "
          + "was not saved",
        status: .dataError
      )
    }
    throw Failure("cannot save the game to \(path): \(error)", status: .ioError)
  }

  /// Saves the game if it changed since it was saved or loaded.
  func saveAtEnd() async throws {
    guard game.currentState.hasUnsavedChanges else { return }
    try await saveOrFail(overwrite: false)
    if !options.json { say("Game saved to \(options.savePathText).") }
  }

  /// Ends the session: a replay replays what the recording holds after the last turn and checks
  /// that it holds nothing more; a recording checks that every record was written.
  ///
  /// - Throws: `ExitCode` 65 after printing why, when the replay does not match the recording; 74
  ///   when records were lost.
  func finish() async throws {
    try await reportingReplayErrors { try await app.finish() }
    if let problem = app.recordingProblem {
      printError("the recording is incomplete: \(problem)")
      throw ExitCode(RecordingOptions.cannotRecord)
    }
  }

  enum Outcome: Equatable {
    case next
    case quit
  }

  /// Runs one command of the loop and prints what happened.
  func execute(_ command: GameCommand) async throws -> Outcome {
    switch command {
    case .help:
      if options.json {
        printJSON(["help": GameCommand.helpText])
      } else {
        StandardOutput.print(GameCommand.helpText)
      }
    case .show:
      printState()
    case .quit:
      return .quit
    case .intent(let intent):
      try await perform(intent)
      printTurn(command: String(describing: intent))
    }
    return .next
  }

  /// Prints the messages since the last turn and the state after it.
  func printTurn(command: String) {
    let lines = takeMessages()
    let state = game.currentState
    if options.json {
      printJSON(TurnOutput(command: command, messages: lines, state: state))
    } else {
      show(lines + state.summaryLines)
    }
  }

  /// Prints the state.
  func printState() {
    let state = game.currentState
    if options.json {
      printJSON(state)
    } else {
      show(state.summaryLines)
    }
  }

  /// Prints one line of text, its control characters escaped.
  func say(_ line: String) {
    StandardOutput.print(DisplayText.escaped(line))
  }

  /// Prints lines of text, each on its own line with its control characters escaped: a name
  /// with a newline in it cannot make a line of its own.
  func show(_ lines: [String]) {
    for line in lines { say(line) }
  }

  @discardableResult
  private func takeMessages() -> [String] {
    messages.withLock { messages in
      defer { messages = [] }
      return messages
    }
  }

  private func printJSON(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return }
    StandardOutput.print(String(decoding: data, as: UTF8.self))
  }
}

/// One turn, as `--json` prints it.
private struct TurnOutput: Encodable {
  var command: String
  var messages: [String]
  var state: GameState
}
