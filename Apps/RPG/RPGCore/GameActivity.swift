/// A save or load in progress.
public enum GameActivity: Sendable, Equatable, Codable {
  /// Saving; `overwrite` allows replacing a save that cannot be read.
  case saving(overwrite: Bool)
  /// Loading.
  case loading
}
