import Foundation

/// The state of a game service, identical in every architecture: the game, the save or load in
/// progress, what went wrong with the save file, and the last thing that happened.
public struct GameState: Sendable, Equatable, Codable {
  /// The game in memory, if one was started or loaded.
  public var game: Game?
  /// The save or load in progress, if any.
  public var activity: GameActivity?
  /// Why the last save or load failed; cleared by the next one that succeeds.
  public var saveError: SaveError?
  /// The game's step when it was last saved or loaded.
  public var savedStep: Int?
  /// The last thing that happened, for the player.
  public var message: String
  /// The number of changes applied: it tells a front that a new message arrived.
  public var changes: Int

  /// The state of a service with no game.
  public init() {
    game = nil
    activity = nil
    saveError = nil
    savedStep = nil
    message = "No game yet. Start one with `new NAME [SEED]`."
    changes = 0
  }

  /// Whether a save is in progress.
  public var isSaving: Bool {
    if case .saving = activity { true } else { false }
  }

  /// Whether a load is in progress.
  public var isLoading: Bool { activity == .loading }

  /// Whether a save or a load is in progress.
  public var isBusy: Bool { activity != nil }

  /// Whether the game changed since it was last saved or loaded.
  public var hasUnsavedChanges: Bool {
    guard let game else { return false }
    return game.step != savedStep
  }

  /// Applies one change: the reducer every architecture shares.
  public mutating func apply(_ change: GameChange) {
    changes += 1
    switch change {
    case .happened(let event):
      // Events other than a start need a game; the rules never produce them without one.
      guard var game = event.startedGame ?? game else { return }
      game.apply(event)
      self.game = game
      if event.startedGame != nil { savedStep = nil }
      message = Rules.narrate(event, in: game)
    case .refused(let reason):
      message = reason
    case .saveStarted(let overwrite):
      activity = .saving(overwrite: overwrite)
      message = "Saving…"
    case .saved(let step):
      activity = nil
      saveError = nil
      savedStep = step
      message = "Game saved."
    case .saveFailed(let error):
      activity = nil
      saveError = error
      message = "Could not save: \(error)"
    case .loadStarted:
      activity = .loading
      message = "Loading…"
    case .loaded(let loaded):
      activity = nil
      saveError = nil
      game = loaded
      savedStep = loaded.step
      message = "Game loaded: \(loaded.player.name), level \(loaded.player.level)."
    case .loadFailed(let error):
      activity = nil
      saveError = error
      message = "Could not load: \(error)"
    }
  }
}

extension GameEvent {
  /// The game this event starts, if it starts one.
  var startedGame: Game? {
    if case .gameStarted(let game) = self { game } else { nil }
  }
}

/// A save or load in progress.
public enum GameActivity: Sendable, Equatable, Codable {
  /// Saving; `overwrite` allows replacing a save that cannot be read.
  case saving(overwrite: Bool)
  /// Loading.
  case loading
}

/// One change to a ``GameState``: the mutation (Reactor), event (Feedback) or reaction (Store)
/// all three architectures apply, one at a time.
public enum GameChange: Sendable, Equatable {
  /// Something happened in the game.
  case happened(GameEvent)
  /// The request could not be carried out (no game, busy); the reason is for the player.
  case refused(String)
  /// A save began.
  case saveStarted(overwrite: Bool)
  /// The game was saved at `step`.
  case saved(step: Int)
  /// The save failed; the file was left as it was.
  case saveFailed(SaveError)
  /// A load began.
  case loadStarted
  /// The saved game was loaded.
  case loaded(Game)
  /// The load failed; the game in memory was kept.
  case loadFailed(SaveError)
}

extension Rules {
  /// The changes that follow `intent` in `state`, before any asynchronous work: the shared
  /// front half of every architecture.
  ///
  /// A save or load gives ``GameChange/saveStarted(overwrite:)`` or
  /// ``GameChange/loadStarted``; the architecture then does the work and applies its result.
  public static func changes(for intent: GameIntent, in state: GameState) -> [GameChange] {
    switch intent {
    case .newGame(let name, let seed):
      let trimmed = name.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else { return [.refused("A player needs a name.")] }
      return [.happened(.gameStarted(Game(name: trimmed, seed: seed)))]
    case .save(let overwrite):
      if state.isBusy { return [.refused("Busy: wait for the save or load to finish.")] }
      guard state.game != nil else { return [.refused("There is no game to save.")] }
      return [.saveStarted(overwrite: overwrite)]
    case .load:
      if state.isBusy { return [.refused("Busy: wait for the save or load to finish.")] }
      return [.loadStarted]
    case .explore, .attack, .drinkPotion, .rest, .flee:
      guard let game = state.game else {
        return [.refused("No game yet. Start one with `new NAME [SEED]`.")]
      }
      return resolve(intent, in: game).map(GameChange.happened)
    }
  }
}
