import AppSupport
import Foundation
import MoviesCore
import RPGCore
import TodoCore

/// Makes a session recording into a test: `cascade-inspect FILE --export-test OUT.swift`.
public enum RecordingTestExport {
  /// A Swift Testing source file that replays the app's session recording at `path` through the
  /// exhaustive `TestStore` of the architecture that made it, step by step, with the recorded
  /// effect outcomes as its effects' results (see `RecordingTestBlueprint.recordingTest`).
  ///
  /// - Parameters:
  ///   - path: A recording made with `rpg|movies|todo … --record FILE`.
  ///   - suite: The test suite's name: a Swift type name.
  ///   - generator: The command that makes the file, named in its header.
  /// - Returns: The source file.
  /// - Throws: ``InspectorError``: ``InspectorError/missing(path:)`` or
  ///   ``InspectorError/unreadable(path:reason:)`` for a file that cannot be read;
  ///   ``InspectorError/notARecording(path:reason:)`` for a file that is not an app's session
  ///   (a recording of an app of your own); ``InspectorError/unknownApp(path:app:)`` for a
  ///   session of an app that is not a sample; ``InspectorError/cannotMakeTest(path:reason:)``
  ///   for a recording that does not replay.
  public static func source(
    forRecordingAt path: String,
    suite: String,
    generator: String
  ) async throws(InspectorError) -> String {
    let index = try RecordingIndex(path: path)
    let url = URL(fileURLWithPath: path)
    let make: (URL, String, String) async throws(RecordingTestError) -> String
    switch index.header.app {
    case "rpg": make = gameRecordingTest
    case "movies": make = moviesRecordingTest
    case "todo": make = todoRecordingTest
    default: throw .unknownApp(path: path, app: index.header.app)
    }
    do throws(RecordingTestError) {
      return try await make(url, suite, generator)
    } catch {
      throw .cannotMakeTest(path: path, reason: error.reason)
    }
  }

  /// The name of the suite made of a recording of `app`'s `command` on `architecture`, such as
  /// `RPGPlayStoreRecordingTests`.
  public static func suiteName(app: String, command: String, architecture: String) -> String {
    func word(_ text: String) -> String {
      let letters = text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }
      let word = String(String.UnicodeScalarView(letters))
      return word.prefix(1).uppercased() + word.dropFirst()
    }
    let name = ["rpg": "RPG"][app] ?? word(app)
    return name + word(command) + word(architecture) + "RecordingTests"
  }

  /// Whether `name` can name a test suite: a Swift identifier that is not a keyword-like `_`.
  public static func isSuiteName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, name != "_" else { return false }
    let letters = CharacterSet.letters.union(CharacterSet(charactersIn: "_"))
    let rest = letters.union(.decimalDigits)
    return letters.contains(first) && name.unicodeScalars.allSatisfy { rest.contains($0) }
  }
}
