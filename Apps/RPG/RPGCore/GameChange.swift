/// One change to a ``GameState``: the mutation (Reactor), event (Feedback) or reaction (Store)
/// all three architectures apply, one at a time.
public enum GameChange: Sendable, Equatable, Codable {
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
