import AppSupport
import ArgumentParser
import CascadeStreams
import Foundation
import RPGCore

/// A game service and what the command line shows of it.
final class Session {
  let options: GameOptions
  /// The session with the game: live, recorded or replayed.
  let app: AppSession<GameIntent, GameState>
  /// The game.
  var game: any AppService<GameIntent, GameState> { app.service }
  /// The messages of the changes since the last turn was printed.
  private let messages = LockedValue<[String]>([])
  private let subscription: any Disposable

  /// A live session that records nothing.
  convenience init(options: GameOptions) {
    self.init(options: options) { log in
      makeGameSession(
        options.architecture,
        saveFile: options.saveURL,
        log: log,
        command: "play"
      )
    }
  }

  /// A session of `command`: live, recorded with `--record`, or replayed with `--replay`.
  ///
  /// - Throws: `ExitCode` after printing why, when the recording cannot be replayed or created.
  convenience init(options: GameOptions, recording: RecordingOptions, command: String) throws {
    try self.init(options: options) { log in
      try recording.session(options: options, log: log, command: command)
    }
  }

  private init(
    options: GameOptions,
    session: (@escaping @Sendable (String) -> Void) throws -> AppSession<GameIntent, GameState>
  ) rethrows {
    self.options = options
    let json = options.json
    let messages = messages
    // The store's seed middleware ("Leveled Up!") speaks in order with the turn's messages.
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

  /// Sends `intent` and waits until it was processed and no save or load is in progress.
  ///
  /// Every intent makes at least one change (``GameState/changes`` grows), which tells that it
  /// was processed even when another thread (a save finishing) was processing the service's
  /// inputs when it was sent.
  @discardableResult
  func perform(_ intent: GameIntent) async throws -> GameState {
    let before = game.currentState.changes
    return try await app.perform(intent) { $0.changes > before && !$0.isBusy }
  }

  /// Loads the save file; a missing, corrupt or newer save is a failure.
  func loadOrFail() async throws {
    let state = try await perform(.load)
    if let error = state.saveError {
      throw Failure("cannot load \(options.saveURL.path): \(error)")
    }
    takeMessages()
  }

  /// Loads the save file if there is one; a corrupt or newer one is a failure.
  func loadIfPresent() async throws {
    let saveURL = options.saveURL
    guard try await app.flag("saveExists", live: { GameFile(url: saveURL).exists }) else {
      if !options.json {
        print("No saved game at \(options.saveURL.path). Type `new NAME [SEED]` to start one.")
      }
      return
    }
    let state = try await perform(.load)
    switch state.saveError {
    case nil:
      break
    case .missing:
      if !options.json {
        print("No saved game at \(options.saveURL.path). Type `new NAME [SEED]` to start one.")
      }
    case let error?:
      throw Failure("cannot load \(options.saveURL.path): \(error)")
    }
    takeMessages()
  }

  /// Saves the game; a failure to save is a failure of the command.
  func saveOrFail(overwrite: Bool) async throws {
    let state = try await perform(.save(overwrite: overwrite))
    if let error = state.saveError {
      throw Failure("cannot save to \(options.saveURL.path): \(error)")
    }
  }

  /// Saves the game if it changed since it was saved or loaded.
  func saveAtEnd() async throws {
    guard game.currentState.hasUnsavedChanges else { return }
    try await saveOrFail(overwrite: false)
    if !options.json { print("Saved to \(options.saveURL.path).") }
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
        print(GameCommand.helpText)
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
      for line in lines { print(line) }
      print(state.summary)
    }
  }

  /// Prints the state.
  func printState() {
    let state = game.currentState
    if options.json {
      printJSON(state)
    } else {
      print(state.summary)
    }
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
    print(String(decoding: data, as: UTF8.self))
  }
}

/// One turn, as `--json` prints it.
private struct TurnOutput: Encodable {
  var command: String
  var messages: [String]
  var state: GameState
}
