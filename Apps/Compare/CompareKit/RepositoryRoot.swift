public import Foundation

/// Finds the Cascade repository, whose sources the comparison counts.
public enum RepositoryRoot {
  /// The repository could not be found.
  public struct NotFound: Error, CustomStringConvertible {
    /// Where the search started.
    public var start: String

    /// What went wrong and what to do.
    public var description: String {
      "no Cascade repository (a Package.swift next to an Apps folder) at or above \(start); "
        + "run from the repository or pass --root"
    }
  }

  /// Whether `directory` is the repository's root: a `Package.swift` next to `Apps/`.
  public static func isRoot(_ directory: URL) -> Bool {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    return manager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path)
      && manager.fileExists(
        atPath: directory.appendingPathComponent("Apps").path,
        isDirectory: &isDirectory
      ) && isDirectory.boolValue
  }

  /// The repository root: `start` or the nearest directory above it that is one.
  ///
  /// - Throws: ``NotFound`` when neither `start` nor any directory above it is a root.
  public static func find(from start: URL) throws(NotFound) -> URL {
    var directory = start.standardizedFileURL
    while true {
      if isRoot(directory) { return directory }
      let parent = directory.deletingLastPathComponent()
      if parent.path == directory.path { throw NotFound(start: start.path) }
      directory = parent
    }
  }
}
