import Foundation

/// A state's change as a JSON merge patch (RFC 7386) between its JSON before and after: the
/// members that changed, a removed one as `null`, anything that is not an object (an array, a
/// number) replaced whole.
///
/// A test generated from a recording asserts each step's change with one:
///
/// ```swift
/// let patch = StatePatch<GameState>.apply
/// await store.receive(event, as: recorded, assert: patch(#"{"changes":5,"player":{"hp":14}}"#))
/// ```
public enum StatePatch<State: Codable> {
  /// The patch that turns `before` into `after`, as JSON text with its keys sorted, or `nil`
  /// when their JSON is the same.
  ///
  /// - Throws: The encoder's error when a state cannot be encoded.
  public static func make(from before: State, to after: State) throws -> String? {
    try JSONValue(of: before).mergePatch(to: JSONValue(of: after))?.text
  }

  /// The assertion that turns a state into the state `json` patches it into: the state's JSON
  /// with the patch merged in, decoded again.
  ///
  /// - Parameter json: A merge patch made by ``make(from:to:)``.
  /// - Returns: A closure that throws when the patch is not JSON or the patched JSON is not a
  ///   `State`.
  public static func apply(_ json: String) -> (inout State) throws -> Void {
    { state in
      let patch = try JSONValue(json: json)
      state = try JSONValue(of: state).merging(patch).decode(State.self)
    }
  }
}

/// Reads the values a test generated from a recording spells as JSON.
public enum RecordedJSON<Value: Decodable> {
  /// The value `json` encodes.
  ///
  /// - Throws: A `DecodingError` when `json` is not a `Value`'s JSON.
  public static func decode(_ json: String) throws -> Value {
    try JSONDecoder().decode(Value.self, from: Data(json.utf8))
  }
}
