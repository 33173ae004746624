import Foundation

/// A JSON document as a value, for merge patches between two states' JSON.
///
/// Numbers keep the form they were read in: a whole number as `Int64` or `UInt64` (a seed above
/// `Int64.max`), any other as `Double`, which `JSONEncoder` writes back as the shortest text that
/// reads as the same `Double`; so a state's JSON read into a value and written again is the same
/// text, and decodes to the same state.
enum JSONValue: Codable, Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int64)
  case unsigned(UInt64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .int(value)
    } else if let value = try? container.decode(UInt64.self) {
      self = .unsigned(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .unsigned(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The value of `encodable`'s JSON.
  init(of encodable: some Encodable) throws {
    self = try JSONDecoder().decode(JSONValue.self, from: JSONValue.encoder.encode(encodable))
  }

  /// The value of a JSON text.
  init(json: String) throws {
    self = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
  }

  /// The JSON text, keys sorted, on one line.
  var text: String {
    // Every case encodes: a non-finite Double never comes from decoded JSON.
    (try? JSONValue.encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }

  /// Decodes `type` from this JSON.
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try JSONDecoder().decode(type, from: JSONValue.encoder.encode(self))
  }

  /// Keys sorted, so that equal values have equal texts.
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()
}

// MARK: - Merge patches (RFC 7386)

extension JSONValue {
  /// The merge patch that turns `self` into `target`, or `nil` if they are equal: objects are
  /// compared key by key (a key that is gone becomes `null`), anything else is replaced whole.
  func mergePatch(to target: JSONValue) -> JSONValue? {
    guard self != target else { return nil }
    guard case .object(let old) = self, case .object(let new) = target else { return target }
    var patch: [String: JSONValue] = [:]
    for (key, value) in new {
      if let before = old[key] {
        if let change = before.mergePatch(to: value) { patch[key] = change }
      } else {
        patch[key] = value.replacingNulls
      }
    }
    for key in old.keys where new[key] == nil { patch[key] = .null }
    return .object(patch)
  }

  /// `self` with `patch` merged in.
  func merging(_ patch: JSONValue) -> JSONValue {
    guard case .object(let changes) = patch else { return patch }
    guard case .object(var result) = self else { return JSONValue.object([:]).merging(patch) }
    for (key, change) in changes {
      if change == .null {
        result[key] = nil
      } else {
        result[key] = (result[key] ?? .object([:])).merging(change)
      }
    }
    return .object(result)
  }

  /// A value added by a patch, as merging it gives it back: a `null` inside an object means
  /// "remove", so an added object keeps none (a state's JSON holds none: `JSONEncoder` leaves a
  /// `nil` out).
  private var replacingNulls: JSONValue {
    guard case .object(let members) = self else { return self }
    return .object(members.filter { $0.value != .null }.mapValues(\.replacingNulls))
  }
}
