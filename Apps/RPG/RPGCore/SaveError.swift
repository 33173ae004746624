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

  /// What went wrong, for the player.
  public var description: String {
    switch self {
    case .missing:
      "there is no saved game"
    case .corrupt(let detail):
      "the save file is corrupt (\(detail)); it was left untouched (save with overwrite to "
        + "replace it)"
    case .newerVersion(let found, let supported):
      "the save file is from a newer version (format \(found), this program reads up to "
        + "\(supported)); it was left untouched (save with overwrite to replace it)"
    case .io(let detail):
      "the save file could not be accessed: \(detail)"
    }
  }
}
