public import Foundation

/// The JSON form of a task list, for `todo export` and `todo import`.
///
/// Export writes an array of tasks in list order:
/// `[{"id": 1, "title": "Buy milk", "done": false, "position": 0}]`. Import reads an array of
/// objects with a `title` (a non-empty string) and an optional `done` (a boolean); other keys,
/// such as an exported `id` and `position`, are ignored, and the tasks are appended as new ones.
public enum TodoTransfer {
  /// Why an import file was refused; nothing was imported.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, for the user.
    public var description: String

    /// A failure with its message.
    public init(description: String) { self.description = description }
  }

  /// The JSON of `tasks`, pretty-printed with sorted keys.
  public static func export(_ tasks: [TodoTask]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(tasks)
  }

  /// The drafts in an import file.
  ///
  /// - Throws: ``Failure`` when the data is not JSON, not an array of tasks, or a task has no
  ///   title, an empty one, or a `done` that is not a boolean.
  public static func drafts(from data: Data) throws(Failure) -> [TodoDraft] {
    let items: [Item]
    do {
      items = try JSONDecoder().decode([Item].self, from: data)
    } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
      throw Failure(description: "the file is not valid JSON")
    } catch let error as DecodingError {
      throw Failure(description: describe(error))
    } catch {
      throw Failure(description: "the file could not be read: \(error)")
    }
    return try items.enumerated().map { index, item throws(Failure) in
      guard !item.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
        throw Failure(description: "task \(index + 1) has an empty title")
      }
      guard !TodoTransfer.containsNUL(item.title) else {
        throw Failure(
          description: "task \(index + 1) has a NUL character (U+0000) in its title, "
            + "which a title cannot hold"
        )
      }
      return TodoDraft(title: item.title, done: item.done ?? false)
    }
  }

  /// Whether `text` holds a NUL character (U+0000), which SQLite would store as the end of a
  /// title: the shell and import refuse such text rather than store less than they acknowledge.
  public static func containsNUL(_ text: String) -> Bool {
    text.unicodeScalars.contains("\u{0}")
  }

  /// One task of an import file.
  private struct Item: Decodable {
    var title: String
    var done: Bool?
  }

  /// Where the file went wrong, by task number and key.
  private static func describe(_ error: DecodingError) -> String {
    let context: DecodingError.Context
    let what: String
    switch error {
    case .typeMismatch(_, let found):
      context = found
      what = "has the wrong type"
    case .valueNotFound(_, let found):
      context = found
      what = "is missing"
    case .keyNotFound(let key, let found):
      context = DecodingError.Context(
        codingPath: found.codingPath + [key],
        debugDescription: found.debugDescription
      )
      what = "is missing"
    case .dataCorrupted(let found):
      context = found
      what = "is malformed"
    @unknown default:
      return "the file is malformed"
    }
    let path = context.codingPath
    guard let first = path.first, let index = first.intValue else {
      return "the file must hold a JSON array of tasks"
    }
    let key = path.dropFirst().map(\.stringValue).joined(separator: ".")
    return key.isEmpty
      ? "task \(index + 1) \(what): it must be an object with a \"title\""
      : "task \(index + 1): \"\(key)\" \(what)"
  }
}
