public import Foundation

/// Encodes a value as JSON with its keys sorted, byte for byte as Foundation's `JSONEncoder`
/// writes it with `.sortedKeys` (and `.withoutEscapingSlashes` unless ``escapesSlashes``), its
/// other settings left as they are — in two thirds of its time on a 3.9 MB todo state (50 ms
/// against 77, `cascade-inspector-bench scrub`), where Foundation's encoder was nearly all of the
/// time a jump to a step took.
///
/// ```swift
/// let json = try SortedJSONEncoder().encode(state)  // what JSONEncoder with .sortedKeys writes
/// ```
///
/// The values are gathered into a tree of their own (objects as arrays of keys and values, not
/// dictionaries: no hashing), then written out once, each object's keys sorted as Foundation
/// sorts them (by their UTF-8 bytes; here by Swift's `<`, the same order for keys in Unicode's
/// normalization form C). The types Foundation's encoder treats apart are written as it
/// writes them with its default strategies: a `Date` as its seconds since 2001, `Data` in
/// Base64, a `URL` as its absolute string, a `Decimal` as its description. As
/// Foundation's, it throws `EncodingError.invalidValue` for a non-finite floating-point number and
/// for a top-level value that encodes nothing. Unlike it, the encoders it hands values have an
/// empty `userInfo`, and compute their `codingPath` only when asked.
public struct SortedJSONEncoder: Sendable {
  /// Whether `/` is written `\/`, as Foundation's encoder does without `.withoutEscapingSlashes`.
  public var escapesSlashes: Bool

  /// An encoder that writes `/` as `\/` if `escapesSlashes`.
  public init(escapesSlashes: Bool = true) {
    self.escapesSlashes = escapesSlashes
  }

  /// `value` as JSON.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite number, or a top-level value that
  ///   encodes nothing; the errors `value`'s `encode(to:)` throws.
  public func encode(_ value: some Encodable) throws -> Data {
    var writer = JSONBytes(escapesSlashes: escapesSlashes)
    writer.write(try Self.node(of: value))
    return Data(writer.bytes)
  }

  /// `value` as JSON, and its name as ``InputName`` names that JSON, at most `nameLimit`
  /// characters, from one encoding: the live endpoint names every input this way, without
  /// parsing the JSON it wrote (which was nearly half of its work per step).
  ///
  /// - Throws: As ``encode(_:)``.
  public func encodeNamed(
    _ value: some Encodable,
    nameLimit: Int = 240
  ) throws -> (json: Data, name: String) {
    let node = try Self.node(of: value)
    var writer = JSONBytes(escapesSlashes: escapesSlashes)
    writer.write(node)
    return (Data(writer.bytes), InputName.name(of: node, limit: nameLimit))
  }

  /// The values `value` encodes, gathered.
  private static func node(of value: some Encodable) throws -> Node {
    let encoder = NodeEncoder(parent: nil, key: nil)
    guard let node = try encoder.node(for: value) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [],
          debugDescription: "Top-level \(type(of: value)) did not encode any values."
        )
      )
    }
    return node
  }
}

extension Node: Nameable {
  /// The node as ``InputName`` reads the JSON it is written as.
  var shape: NameShape<Node> {
    switch self {
    case .null: .null
    case .bool(let value): .literal(value ? "true" : "false")
    case .int(let value): .literal(String(value))
    case .uint(let value): .literal(String(value))
    // A floating-point number, as written: read back as the JSON reader reads it.
    case .text(let text): .literal(InputName.name(ofJSON: Data(text.utf8)) ?? text)
    case .string(let string): .string(string)
    case .object(let object): .object(object.written.map { ($0.key, $0.value) })
    case .array(let array): .array(array.elements)
    case .encoder(let encoder): (encoder.result ?? .object(ObjectNode())).shape
    }
  }
}

/// A value gathered, to be written.
private enum Node {
  case null
  case bool(Bool)
  case int(Int64)
  case uint(UInt64)
  /// A number already written (a floating-point one, or Foundation's fragment).
  case text(String)
  case string(String)
  case object(ObjectNode)
  case array(ArrayNode)
  /// What an encoder handed out (a `superEncoder`) encodes, read when written.
  case encoder(NodeEncoder)
}

private final class ObjectNode {
  var entries: [Entry] = []

  init() {
    // Most objects have a few keys: no growth for those.
    entries.reserveCapacity(8)
  }

  /// The entries as they are written: sorted by their keys' UTF-8 bytes, each key once with
  /// the last value given for it.
  var written: [Entry] {
    var entries = entries
    // An insertion sort: an object has few keys, often in order already. Stable: of equal keys,
    // the last given stays last, and is the one kept.
    for position in entries.indices.dropFirst() {
      var slot = position
      while slot > 0, JSONBytes.precedes(entries[position].key, entries[slot - 1].key) {
        slot -= 1
      }
      if slot < position { entries.insert(entries.remove(at: position), at: slot) }
    }
    // Nearly always each key once: then the entries as they are, not copied again.
    let repeated = entries.indices.dropLast().contains { entries[$0].key == entries[$0 + 1].key }
    guard repeated else { return entries }
    return entries.indices.compactMap { position in
      position + 1 < entries.count && entries[position + 1].key == entries[position].key
        ? nil : entries[position]
    }
  }
}

/// A key and its value (a struct, not a tuple: an array of tuples is copied through the
/// runtime's generic tuple functions).
private struct Entry {
  var key: String
  var value: Node
}

private final class ArrayNode {
  var elements: [Node] = []
}

/// The `Encoder` a value encodes itself to: its result is a ``Node``.
private final class NodeEncoder: Encoder {
  /// The encoder of the value holding this one, and the key or index it is held under, for
  /// ``codingPath``, computed only when asked.
  let parent: NodeEncoder?
  let key: (any CodingKey)?
  /// What the value encoded: a container, or a single value.
  var result: Node?

  init(parent: NodeEncoder?, key: (any CodingKey)?) {
    self.parent = parent
    self.key = key
  }

  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var encoder: NodeEncoder? = self
    while let current = encoder {
      // A single value's encoder has no key of its own: its value is its holder's.
      if let key = current.key { path.append(key) }
      encoder = current.parent
    }
    return path.reversed()
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // Asked twice, the same object: Foundation's encoder merges the two as well.
    if case .object(let object) = result {
      return KeyedEncodingContainer(KeyedNodeContainer(object: object, encoder: self))
    }
    let object = ObjectNode()
    result = .object(object)
    return KeyedEncodingContainer(KeyedNodeContainer(object: object, encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array(let array) = result {
      return UnkeyedNodeContainer(array: array, encoder: self)
    }
    let array = ArrayNode()
    result = .array(array)
    return UnkeyedNodeContainer(array: array, encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleNodeContainer(encoder: self)
  }

  /// The node of `value`, held under `key` of this encoder's value: scalars at once, the types
  /// Foundation treats apart by Foundation, anything else by its `encode(to:)`; `nil` if it
  /// encoded nothing.
  func node<T: Encodable>(for value: T, key: (any CodingKey)? = nil) throws -> Node? {
    if T.self == String.self { return .string(value as! String) }
    if T.self == Int.self { return .int(Int64(value as! Int)) }
    if T.self == Bool.self { return .bool(value as! Bool) }
    if T.self == Double.self { return try number(value as! Double) }
    // As Foundation's encoder writes them with its default strategies.
    if T.self == Date.self {
      return try number((value as! Date).timeIntervalSinceReferenceDate)
    }
    if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
    if T.self == URL.self { return .string((value as! URL).absoluteString) }
    if T.self == Decimal.self { return .text((value as! Decimal).description) }
    let nested = NodeEncoder(parent: self, key: key)
    try value.encode(to: nested)
    return nested.result
  }

  /// The node of a value held under `key`: `{}` when it encoded nothing, as Foundation writes it.
  func nestedNode<T: Encodable>(for value: T, key: (any CodingKey)?) throws -> Node {
    try node(for: value, key: key) ?? .object(ObjectNode())
  }

  /// A floating-point number as Foundation writes it: its description without a trailing `.0`.
  func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws -> Node {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath,
          debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."
        )
      )
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return .text(text)
  }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let object: ObjectNode
  let encoder: NodeEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }

  private func add(_ node: Node, _ key: Key) {
    object.entries.append(Entry(key: key.stringValue, value: node))
  }

  mutating func encodeNil(forKey key: Key) throws { add(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { add(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { add(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    add(try encoder.number(value), key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    add(try encoder.number(value), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { add(.int(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    add(.uint(UInt64(value)), key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    add(.uint(UInt64(value)), key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.uint(value), key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    add(try encoder.nestedNode(for: value, key: key), key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = ObjectNode()
    add(.object(nested), key)
    return KeyedEncodingContainer(
      KeyedNodeContainer<NestedKey>(object: nested, encoder: NodeEncoder(parent: encoder, key: key))
    )
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = ArrayNode()
    add(.array(nested), key)
    return UnkeyedNodeContainer(array: nested, encoder: NodeEncoder(parent: encoder, key: key))
  }

  mutating func superEncoder() -> any Encoder {
    let key = SuperKey.super
    let nested = NodeEncoder(parent: encoder, key: key)
    object.entries.append(Entry(key: key.stringValue, value: .encoder(nested)))
    return nested
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let nested = NodeEncoder(parent: encoder, key: key)
    add(.encoder(nested), key)
    return nested
  }
}

/// The key of `superEncoder()`'s value.
private enum SuperKey: String, CodingKey {
  case `super`
}

/// An index of an unkeyed container, for ``NodeEncoder/codingPath``.
private struct IndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }
  init(intValue: Int) { self.intValue = intValue }
  init?(stringValue: String) { nil }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
  let array: ArrayNode
  let encoder: NodeEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { array.elements.count }

  private func add(_ node: Node) { array.elements.append(node) }

  mutating func encodeNil() throws { add(.null) }
  mutating func encode(_ value: Bool) throws { add(.bool(value)) }
  mutating func encode(_ value: String) throws { add(.string(value)) }
  mutating func encode(_ value: Double) throws { add(try encoder.number(value)) }
  mutating func encode(_ value: Float) throws { add(try encoder.number(value)) }
  mutating func encode(_ value: Int) throws { add(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { add(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { add(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { add(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { add(.int(value)) }
  mutating func encode(_ value: UInt) throws { add(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { add(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt16) throws { add(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt32) throws { add(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt64) throws { add(.uint(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    add(try encoder.nestedNode(for: value, key: IndexKey(intValue: count)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = ObjectNode()
    let key = IndexKey(intValue: count)
    add(.object(nested))
    return KeyedEncodingContainer(
      KeyedNodeContainer<NestedKey>(object: nested, encoder: NodeEncoder(parent: encoder, key: key))
    )
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = ArrayNode()
    let key = IndexKey(intValue: count)
    add(.array(nested))
    return UnkeyedNodeContainer(array: nested, encoder: NodeEncoder(parent: encoder, key: key))
  }

  mutating func superEncoder() -> any Encoder {
    let nested = NodeEncoder(parent: encoder, key: IndexKey(intValue: count))
    add(.encoder(nested))
    return nested
  }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
  let encoder: NodeEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }

  private func set(_ node: Node) { encoder.result = node }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { set(try encoder.number(value)) }
  mutating func encode(_ value: Float) throws { set(try encoder.number(value)) }
  mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { set(.int(value)) }
  mutating func encode(_ value: UInt) throws { set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt16) throws { set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt32) throws { set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt64) throws { set(.uint(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    // The value is this encoder's: a container it asks for is this encoder's own.
    if let node = try encoder.node(for: value, key: nil) {
      set(node)
    } else if encoder.result == nil {
      set(.object(ObjectNode()))
    }
  }
}

/// The bytes of the JSON text of a ``Node``.
private struct JSONBytes {
  let escapesSlashes: Bool
  var bytes: [UInt8] = []

  init(escapesSlashes: Bool) {
    self.escapesSlashes = escapesSlashes
    bytes.reserveCapacity(4_096)
  }

  mutating func write(_ node: Node) {
    switch node {
    case .null: bytes.append(contentsOf: "null".utf8)
    case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value): write(value)
    case .uint(let value): write(value)
    case .text(let text): bytes.append(contentsOf: text.utf8)
    case .string(let string): write(string)
    case .object(let object): write(object)
    case .array(let array):
      bytes.append(UInt8(ascii: "["))
      for (position, element) in array.elements.enumerated() {
        if position > 0 { bytes.append(UInt8(ascii: ",")) }
        write(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .encoder(let encoder): write(encoder.result ?? .object(ObjectNode()))
    }
  }

  /// An object, its keys sorted by their UTF-8 bytes; of a key given twice, the last value.
  mutating func write(_ object: ObjectNode) {
    bytes.append(UInt8(ascii: "{"))
    for (position, entry) in object.written.enumerated() {
      if position > 0 { bytes.append(UInt8(ascii: ",")) }
      write(entry.key)
      bytes.append(UInt8(ascii: ":"))
      write(entry.value)
    }
    bytes.append(UInt8(ascii: "}"))
  }

  /// Whether `first` sorts before `second`: by their Unicode scalars, which for keys in
  /// normalization form C (Swift's literals, and nearly all text) is the order of their UTF-8
  /// bytes, Foundation's. (`<` is much faster than a walk of their `utf8` views.)
  static func precedes(_ first: String, _ second: String) -> Bool {
    first < second
  }

  mutating func write(_ value: Int64) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      write(value.magnitude)
    } else {
      write(UInt64(value))
    }
  }

  mutating func write(_ value: UInt64) {
    var count = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      count += 1
    }
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
    rest = value
    var position = bytes.count - 1
    repeat {
      bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
      position -= 1
    } while rest > 0
  }

  private static let hex = Array("0123456789abcdef".utf8)

  /// A string, quoted and escaped as Foundation escapes it: `"`, `\`, the control characters
  /// (`\b`, `\f`, `\n`, `\r`, `\t`, the others `\u00XX`), and `/` if ``escapesSlashes``.
  mutating func write(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    // Most strings need no escape: their bytes are copied at once, then looked at where they
    // landed (a loop over an array's bytes, much faster than one over the string's).
    let start = bytes.count
    bytes.append(contentsOf: string.utf8)
    let slash: UInt8 = escapesSlashes ? UInt8(ascii: "/") : UInt8(ascii: "\"")
    var plain = true
    for position in start..<bytes.count {
      let byte = bytes[position]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == slash {
        plain = false
        break
      }
    }
    if plain {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    let raw = Array(bytes[start...])
    bytes.removeSubrange(start...)
    for byte in raw {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
      case UInt8(ascii: "/") where escapesSlashes:
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
      case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
      case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
      case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
      case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
      case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
      case 0..<0x20:
        bytes.append(contentsOf: #"\u00"#.utf8)
        bytes.append(Self.hex[Int(byte >> 4)])
        bytes.append(Self.hex[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
