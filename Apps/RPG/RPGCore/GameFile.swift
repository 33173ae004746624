import AppSupport
public import Foundation

/// The save file of a game: JSON, written atomically, never written over when it cannot be read
/// unless the player agrees.
///
/// The file holds a format version and the game:
///
/// ```json
/// {"version": 1, "game": {"seed": 42, "player": {…}, "step": 12, …}}
/// ```
public struct GameFile: Sendable {
  /// The format this program writes, and the newest it reads.
  public static let formatVersion = 1

  /// Where the file is.
  public var url: URL

  /// The recorded outcomes that answer this file's saves and loads in a test generated from a
  /// recording, in place of the file; `nil` for a real file.
  let recorded: RecordedEffects<GameChange>?

  /// A save file at `url`.
  public init(url: URL) {
    self.url = url
    recorded = nil
  }

  /// A save file that is never touched: each save or load gets the next outcome in `recorded`,
  /// once the test releases it.
  init(recorded: RecordedEffects<GameChange>) {
    url = URL(fileURLWithPath: "/dev/null")
    self.recorded = recorded
  }

  /// The default save file: `$XDG_DATA_HOME/cascade/rpg/save.json`, or
  /// `~/.local/share/cascade/rpg/save.json`.
  public static func defaultURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let base: URL
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
      base = URL(fileURLWithPath: data, isDirectory: true)
    } else if let home = environment["HOME"], !home.isEmpty {
      base = URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/share", isDirectory: true)
    } else {
      base = FileManager.default.homeDirectoryForCurrentUser
        .appendingPathComponent(".local/share", isDirectory: true)
    }
    return base.appendingPathComponent("cascade/rpg/save.json")
  }

  /// Whether a file exists at ``url``.
  public var exists: Bool { FileManager.default.fileExists(atPath: url.path) }

  /// Reads the saved game.
  ///
  /// - Throws: ``SaveError/missing``, ``SaveError/corrupt(_:)``,
  ///   ``SaveError/newerVersion(found:supported:)`` or ``SaveError/io(_:)``.
  public func read() throws(SaveError) -> Game {
    let data: Data
    do {
      data = try SafeFile.read(url.path)
    } catch {
      if !exists { throw .missing }
      throw .io(FileProblem(error, path: url.path).reason)
    }
    return try Self.decode(data)
  }

  /// Reads the saved game, off the caller's thread.
  public func load() async throws(SaveError) -> Game {
    try await Self.detached { () throws(SaveError) in try read() }
  }

  /// Writes `game`: to a temporary file in the same directory, then renamed over the save, so
  /// the save is always either the old game or the new one (``SafeFile/write(_:to:creatingDirectories:)``:
  /// a symbolic link is written through and kept; a device, a pipe, a socket or a directory is
  /// refused and left as it is).
  ///
  /// A file that cannot be read as a save (corrupt, or from a newer version) is replaced only
  /// when `overwrite` is true; otherwise its error is thrown and the file is left untouched.
  public func write(_ game: Game, overwrite: Bool) throws(SaveError) {
    if !overwrite && exists {
      do throws(SaveError) {
        _ = try read()
      } catch .missing {
        // Gone in between: nothing to protect.
      }
    }
    let data: Data
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      data = try encoder.encode(SaveDocument(version: Self.formatVersion, game: game))
    } catch {
      throw .io(Self.describe(error))
    }
    do {
      try SafeFile.write(data, to: url.path, creatingDirectories: true)
    } catch {
      throw .io(error.reason)
    }
  }

  /// Writes `game`, off the caller's thread.
  public func save(_ game: Game, overwrite: Bool) async throws(SaveError) {
    try await Self.detached { () throws(SaveError) in try write(game, overwrite: overwrite) }
  }

  /// Runs `work` in a detached task and returns its outcome.
  private static func detached<Value: Sendable>(
    _ work: @escaping @Sendable () throws(SaveError) -> Value
  ) async throws(SaveError) -> Value {
    let result = await Task.detached { () -> Result<Value, SaveError> in
      do throws(SaveError) {
        return .success(try work())
      } catch {
        return .failure(error)
      }
    }.value
    return try result.get()
  }

  /// Decodes a save document, checking its version first.
  static func decode(_ data: Data) throws(SaveError) -> Game {
    let decoder = JSONDecoder()
    let header: SaveHeader
    do {
      header = try decoder.decode(SaveHeader.self, from: data)
    } catch {
      throw .corrupt(describe(error))
    }
    guard header.version <= formatVersion else {
      throw .newerVersion(found: header.version, supported: formatVersion)
    }
    do {
      return try decoder.decode(SaveDocument.self, from: data).game
    } catch {
      throw .corrupt(describe(error))
    }
  }

  /// A short account of a decoding or file error.
  static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
      return "it is not valid JSON"
    case DecodingError.dataCorrupted(let context):
      return "unexpected value at \(path(context.codingPath))"
    case DecodingError.keyNotFound(let key, let context):
      return "missing \(path(context.codingPath + [key]))"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "unexpected value at \(path(context.codingPath))"
    case let error as OutOfRange:
      return error.description
    case let error as CocoaError:
      return FileProblem(error, path: "").reason
    default:
      return String(describing: error)
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.isEmpty ? "the top level" : "`" + keys.map(\.stringValue).joined(separator: ".") + "`"
  }
}

/// The save file's first field, read before the rest.
private struct SaveHeader: Decodable {
  var version: Int
}

/// The save file's content.
private struct SaveDocument: Codable {
  var version: Int
  var game: Game
}
