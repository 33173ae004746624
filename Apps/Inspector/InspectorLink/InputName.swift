public import Foundation

/// An input's name as its Swift source spells it, from its `Codable` JSON: what the inspector's
/// timeline shows and what its search looks in.
///
/// Swift encodes an enum case with associated values as an object of one key, the case, whose
/// value holds the payload: `_0`, `_1`… for unlabelled values, the labels otherwise, and nothing
/// for a case without one. So `{"intent":{"_0":{"attack":{}}}}` is named `intent(attack)`, and
/// `{"newGame":{"name":"Ada","seed":42}}` is `newGame(name: "Ada", seed: 42)`. Any other object
/// is a struct, `{name: "script", value: data("…")}`; arrays, strings, numbers, booleans and
/// `null` are written as Swift writes them (`[1, 2]`, `"text"`, `42`, `true`, `nil`).
///
/// An object of one key whose value is an object is read as an enum case: a struct of one field
/// holding a struct, or a dictionary of one entry, is named as if it were one.
///
/// The JSON comes from outside (a recording): nesting deeper than ``depthLimit`` is written
/// `…`, and the name stops at `limit` characters (with `…`), so a hostile line costs at most
/// that much.
public enum InputName {
  /// How deep the name follows nested values.
  public static let depthLimit = 32

  /// The name of a JSON value parsed with `JSONSerialization`, at most `limit` characters.
  public static func name(of value: Any, limit: Int = 240) -> String {
    var writer = Writer(limit: limit)
    writer.write(value, depth: 0)
    return writer.finish()
  }

  /// The name of `json`, one JSON value (fragments allowed); `nil` if it is not JSON.
  public static func name(ofJSON json: Data, limit: Int = 240) -> String? {
    guard let value = try? JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
    else { return nil }
    return name(of: value, limit: limit)
  }

  /// The case and payload of `value` if it reads as an enum case.
  static func enumCase(_ value: Any) -> (name: String, payload: [String: Any])? {
    guard let object = value as? [String: Any], object.count == 1, let (name, inner) = object.first,
      let payload = inner as? [String: Any]
    else { return nil }
    return (name, payload)
  }

  /// The payload's entries in order: `_0`, `_1`… by number (without their keys), then labels in
  /// alphabetical order (JSON objects keep no order).
  static func entries(of payload: [String: Any]) -> [(label: String?, value: Any)] {
    func position(_ key: String) -> Int? {
      guard key.first == "_", let number = Int(key.dropFirst()), number >= 0 else { return nil }
      return number
    }
    let positional = payload.compactMap { key, value in position(key).map { ($0, value) } }
      .sorted { $0.0 < $1.0 }
      .map { (label: String?.none, value: $0.1) }
    let labelled = payload.filter { position($0.key) == nil }
      .sorted { $0.key < $1.key }
      .map { (label: Optional($0.key), value: $0.value) }
    return positional + labelled
  }

  private struct Writer {
    let limit: Int
    var text = ""
    var full = false

    init(limit: Int) { self.limit = max(1, limit) }

    mutating func append(_ part: String) {
      guard !full else { return }
      if text.count + part.count > limit {
        text += part.prefix(limit - text.count)
        full = true
      } else {
        text += part
      }
    }

    mutating func finish() -> String { full ? text + "…" : text }

    mutating func write(_ value: Any, depth: Int) {
      guard !full else { return }
      guard depth < InputName.depthLimit else { return append("…") }
      if let (name, payload) = InputName.enumCase(value) {
        append(name)
        guard !payload.isEmpty else { return }
        append("(")
        list(InputName.entries(of: payload), depth: depth)
        append(")")
      } else if let object = value as? [String: Any] {
        append("{")
        list(
          object.sorted { $0.key < $1.key }.map { (label: $0.key, value: $0.value) },
          depth: depth
        )
        append("}")
      } else if let array = value as? [Any] {
        append("[")
        list(array.map { (label: nil, value: $0) }, depth: depth)
        append("]")
      } else if let string = value as? String {
        append(InputName.quoted(string))
      } else if value is NSNull {
        append("nil")
      } else if let number = value as? NSNumber {
        append(InputName.literal(number))
      } else {
        append("?")
      }
    }

    mutating func list(_ entries: [(label: String?, value: Any)], depth: Int) {
      for (position, entry) in entries.enumerated() {
        if full { return }
        if position > 0 { append(", ") }
        if let label = entry.label { append(label + ": ") }
        write(entry.value, depth: depth + 1)
      }
    }
  }

  static func quoted(_ string: String) -> String {
    var out = "\""
    for character in string {
      switch character {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default: out.append(character)
      }
    }
    return out + "\""
  }

  static func literal(_ number: NSNumber) -> String {
    // A JSON `true`/`false` comes back from `JSONSerialization` as a boolean NSNumber, whose
    // type is `char`: JSON has no other number of that type (`as? Bool` also matches 0 and 1).
    if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
    return number.stringValue
  }
}
