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
    var writer = Writer<ParsedJSON>(limit: limit)
    writer.write(ParsedJSON(value: value), depth: 0)
    return writer.finish()
  }

  /// The name of `json`, one JSON value (fragments allowed); `nil` if it is not JSON.
  public static func name(ofJSON json: Data, limit: Int = 240) -> String? {
    guard let value = try? JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
    else { return nil }
    return name(of: value, limit: limit)
  }

  /// The name of a value as ``Nameable`` reads it, at most `limit` characters.
  static func name<Value: Nameable>(of value: Value, limit: Int = 240) -> String {
    var writer = Writer<Value>(limit: limit)
    writer.write(value, depth: 0)
    return writer.finish()
  }

  /// The payload's entries in order: `_0`, `_1`… by number (without their keys), then labels in
  /// alphabetical order (JSON objects keep no order).
  static func entries<Value>(
    of payload: [(key: String, value: Value)]
  ) -> [(label: String?, value: Value)] {
    func position(_ key: String) -> Int? {
      guard key.first == "_", let number = Int(key.dropFirst()), number >= 0 else { return nil }
      return number
    }
    let positional = payload.compactMap { entry in position(entry.key).map { ($0, entry.value) } }
      .sorted { $0.0 < $1.0 }
      .map { (label: String?.none, value: $0.1) }
    let labelled = payload.filter { position($0.key) == nil }
      .sorted { $0.key < $1.key }
      .map { (label: Optional($0.key), value: $0.value) }
    return positional + labelled
  }

  private struct Writer<Value: Nameable> {
    let limit: Int
    var text = ""
    /// `text.count`, kept: counting a string walks it.
    var count = 0
    var full = false

    init(limit: Int) { self.limit = max(1, limit) }

    mutating func append(_ part: String) {
      guard !full else { return }
      let length = part.count
      if count + length > limit {
        text += part.prefix(limit - count)
        count = limit
        full = true
      } else {
        text += part
        count += length
      }
    }

    mutating func finish() -> String { full ? text + "…" : text }

    mutating func write(_ value: Value, depth: Int) {
      guard !full else { return }
      guard depth < InputName.depthLimit else { return append("…") }
      switch value.shape {
      case .object(let members):
        // An object of one key whose value is an object: an enum case and its payload.
        if members.count == 1, case .object(let payload) = members[0].value.shape {
          append(members[0].key)
          guard !payload.isEmpty else { return }
          append("(")
          list(InputName.entries(of: payload), depth: depth)
          append(")")
        } else {
          append("{")
          list(
            members.sorted { $0.key < $1.key }.map { (label: $0.key, value: $0.value) },
            depth: depth
          )
          append("}")
        }
      case .array(let elements):
        append("[")
        list(elements.map { (label: nil, value: $0) }, depth: depth)
        append("]")
      case .string(let string): append(InputName.quoted(string))
      case .literal(let literal): append(literal)
      case .null: append("nil")
      case .unknown: append("?")
      }
    }

    mutating func list(_ entries: [(label: String?, value: Value)], depth: Int) {
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

/// A JSON value as ``InputName`` reads it: a value parsed by `JSONSerialization`
/// (``InputName/name(ofJSON:limit:)``), or one gathered by ``SortedJSONEncoder`` before it is
/// written (``SortedJSONEncoder/encodeNamed(_:nameLimit:)``: the live endpoint names each input
/// from its encoding, without parsing the JSON it wrote).
protocol Nameable {
  /// What the value is, its members and elements as values of the same kind.
  var shape: NameShape<Self> { get }
}

/// What a ``Nameable`` value is.
enum NameShape<Value> {
  /// An object's members, each key once.
  case object([(key: String, value: Value)])
  case array([Value])
  case string(String)
  /// A number or a boolean, as Swift writes it.
  case literal(String)
  case null
  case unknown
}

/// A value parsed by `JSONSerialization`.
struct ParsedJSON: Nameable {
  let value: Any

  var shape: NameShape<ParsedJSON> {
    if let object = value as? [String: Any] {
      return .object(object.map { (key: $0.key, value: ParsedJSON(value: $0.value)) })
    } else if let array = value as? [Any] {
      return .array(array.map(ParsedJSON.init(value:)))
    } else if let string = value as? String {
      return .string(string)
    } else if value is NSNull {
      return .null
    } else if let number = value as? NSNumber {
      return .literal(InputName.literal(number))
    }
    return .unknown
  }
}
