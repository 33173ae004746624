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
    changes &+= 1  // a counter: it wraps rather than trap
    switch change {
    case .happened(let event):
      // Events other than a start need a game; the rules never produce them without one.
      guard var game = event.startedGame ?? game else { return }
      let before = game
      game.apply(event)
      self.game = game
      if event.startedGame != nil { savedStep = nil }
      message = Rules.narrate(event, in: game, before: before)
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
      message =
        error.isUnreadableSave
        ? "Could not save: \(error). It was left as it is; type `save --force` to replace it."
        : "Could not save: \(error)."
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
      message = "Could not load: \(error)."
    }
  }
}

extension GameEvent {
  /// The game this event starts, if it starts one.
  var startedGame: Game? {
    if case .gameStarted(let game) = self { game } else { nil }
  }
}
