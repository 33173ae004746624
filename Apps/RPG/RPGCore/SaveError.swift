/// Why a save file could not be read or written.
public enum SaveError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
  /// There is no save file.
  case missing
  /// The file is not a save this program can read; saving over it needs consent.
  case corrupt(String)
  /// The file was written by a newer version; saving over it needs consent.
  case newerVersion(found: Int, supported: Int)
  /// The file system refused.
  case io(String)

  /// What went wrong, for the player, without advice (which depends on what they were doing).
  ///
  /// ```swift
  /// SaveError.corrupt("not valid JSON").description  // the save file is corrupt (not valid JSON)
  /// ```
  public var description: String {
    switch self {
    case .missing:
      "there is no saved game"
    case .corrupt(let detail):
      "the save file is corrupt (\(detail))"
    case .newerVersion(let found, let supported):
      "the save file is from a newer version of the game (format \(found); this version reads "
        + "format \(supported) at most)"
    case .io(let detail):
      "the save file could not be read or written: \(detail)"
    }
  }

  /// Whether the save file is there but cannot be read as a game: it is kept until the player
  /// agrees to replace it.
  public var isUnreadableSave: Bool {
    switch self {
    case .corrupt, .newerVersion: true
    case .missing, .io: false
    }
  }
}
