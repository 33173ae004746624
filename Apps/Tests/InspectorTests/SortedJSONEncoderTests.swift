import AppTestSupport
import Foundation
import InspectorKit
import InspectorLink
import MoviesCore
import RPGCore
import Testing
import TodoCore

/// `SortedJSONEncoder` writes what Foundation's `JSONEncoder` with `.sortedKeys` writes, byte for
/// byte: the inspector's states, diffs and exports are compared with states Foundation wrote.
@Suite struct SortedJSONEncoderTests {
  /// Foundation's encoder, as the inspector set it up before.
  static func foundation(escapingSlashes: Bool) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      escapingSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  enum Shape: Codable, Equatable {
    case dot
    case circle(radius: Double)
    case polygon([Int], name: String?)
  }

  /// Every kind of value the `Encoder` protocol has, nested.
  struct KitchenSink: Encodable {
    struct Wrapped: Encodable {
      var raw: String
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(raw)
      }
    }

    /// Keys out of order, a key given twice, a nested container, a super encoder, an explicit
    /// `nil`.
    struct Manual: Encodable {
      enum Keys: String, CodingKey { case zeta, alpha, beta, nested, list }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .zeta)
        try container.encode("first", forKey: .alpha)
        try container.encode("second", forKey: .alpha)
        try container.encodeNil(forKey: .beta)
        var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
        try nested.encode(UInt8(7), forKey: .beta)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode(Int16(-3))
        try list.encodeNil()
        var inner = list.nestedUnkeyedContainer()
        try inner.encode(true)
        try 42.encode(to: container.superEncoder())
        var again = encoder.container(keyedBy: Keys.self)
        try again.encode(Float(0.5), forKey: .beta)
      }
    }

    /// Encodes nothing: `{}` where it is held.
    struct Empty: Encodable {
      func encode(to encoder: any Encoder) throws {}
    }

    var text =
      "quote \" backslash \\ slash / newline \n tab \t bell \u{07} escape \u{1B} del \u{7F}"
    var unicode = "é 😀 \u{2028} 日本"
    var bools = [true, false]
    var integers: [Int] = [0, -1, 42, .max, .min]
    var sized: [Int64] = [.max, .min]
    var unsigned: [UInt64] = [0, .max]
    var small: (Int8, Int16, Int32, UInt8, UInt16, UInt32) = (-8, -16, -32, 8, 16, 32)
    var doubles = [
      0, -0.0, 1, 1.5, 0.1, 1e20, 1e-7, 123_456_789.125, 1e16, .leastNonzeroMagnitude,
      .greatestFiniteMagnitude,
    ]
    var floats: [Float] = [1, 0.1, 3.4e38, -2.5]
    var optionals: [Int?] = [1, nil, 3]
    var missing: String? = nil
    var present: String? = "here"
    var byName: [String: Int] = ["b": 1, "A": 2, "a10": 3, "a9": 4, "_x": 5, "é": 6, "Z": 7, "": 8]
    var byNumber: [Int: String] = [10: "ten", 2: "two", -1: "minus one"]
    var byShape: [Double: Bool] = [1.5: true]
    var shapes: [Shape] = [
      .dot, .circle(radius: 2), .polygon([1, 2, 3], name: nil), .polygon([], name: "x"),
    ]
    var date = Date(timeIntervalSinceReferenceDate: 12.5)
    var data = Data([0, 1, 2, 250])
    var url = URL(string: "https://example.com/a/b?c=d")!
    var decimal = Decimal(string: "12.25")!
    var wrapped = Wrapped(raw: "wrapped/value")
    var manual = Manual()
    var empty = Empty()
    var nestedArrays = [[[1], []], []]
    var nestedEmpty: [Empty] = [Empty(), Empty()]

    enum CodingKeys: String, CodingKey {
      case text, unicode, bools, integers, sized, unsigned, doubles, floats, optionals
      case missing, present, byName, byNumber, byShape, shapes, date, data, url, decimal
      case wrapped, manual, empty, nestedArrays, nestedEmpty, small
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(text, forKey: .text)
      try container.encode(unicode, forKey: .unicode)
      try container.encode(bools, forKey: .bools)
      try container.encode(integers, forKey: .integers)
      try container.encode(sized, forKey: .sized)
      try container.encode(unsigned, forKey: .unsigned)
      try container.encode(doubles, forKey: .doubles)
      try container.encode(floats, forKey: .floats)
      try container.encode(optionals, forKey: .optionals)
      try container.encodeIfPresent(missing, forKey: .missing)
      try container.encodeIfPresent(present, forKey: .present)
      try container.encode(byName, forKey: .byName)
      try container.encode(byNumber, forKey: .byNumber)
      try container.encode(byShape, forKey: .byShape)
      try container.encode(shapes, forKey: .shapes)
      try container.encode(date, forKey: .date)
      try container.encode(data, forKey: .data)
      try container.encode(url, forKey: .url)
      try container.encode(decimal, forKey: .decimal)
      try container.encode(wrapped, forKey: .wrapped)
      try container.encode(manual, forKey: .manual)
      try container.encode(empty, forKey: .empty)
      try container.encode(nestedArrays, forKey: .nestedArrays)
      try container.encode(nestedEmpty, forKey: .nestedEmpty)
      var small = container.nestedUnkeyedContainer(forKey: .small)
      try small.encode(self.small.0)
      try small.encode(self.small.1)
      try small.encode(self.small.2)
      try small.encode(self.small.3)
      try small.encode(self.small.4)
      try small.encode(self.small.5)
    }
  }

  @Test(arguments: [true, false])
  func everyKindOfValueIsWrittenAsFoundationWritesIt(escapingSlashes: Bool) throws {
    let sink = KitchenSink()
    let ours = try SortedJSONEncoder(escapesSlashes: escapingSlashes).encode(sink)
    let theirs = try Self.foundation(escapingSlashes: escapingSlashes).encode(sink)
    #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
  }

  @Test func topLevelScalarsAndCollectionsAreWrittenAsFoundationWritesThem() throws {
    let encoder = SortedJSONEncoder()
    let foundation = Self.foundation(escapingSlashes: true)
    #expect(try encoder.encode(5) == foundation.encode(5))
    #expect(try encoder.encode("a/b") == foundation.encode("a/b"))
    #expect(try encoder.encode(Int?.none) == foundation.encode(Int?.none))
    #expect(try encoder.encode([String]()) == foundation.encode([String]()))
    #expect(try encoder.encode([String: Int]()) == foundation.encode([String: Int]()))
    #expect(try encoder.encode(Shape.dot) == foundation.encode(Shape.dot))
  }

  @Test func aNonFiniteNumberOrANothingAtTheTopThrowsAsInFoundation() {
    #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode([1, Double.nan]) }
    #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode(Float.infinity) }
    #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode(KitchenSink.Empty()) }
  }

  /// A todo list of titles with every character a title may hold.
  @Test func aLargeTodoStateIsWrittenAsFoundationWritesIt() throws {
    let titles = ["plain", "quote \"x\"", "back\\slash", "a/b", "tab\tnew\nline", "é😀", "\u{01}"]
    let tasks = (0..<3_000).map { index in
      TodoTask(
        id: index + 1,
        title: titles[index % titles.count],
        done: index % 2 == 0,
        position: index
      )
    }
    let state = TodoState(
      snapshot: TodoSnapshot(tasks: tasks, nextID: 3_001, canUndo: true, canRedo: false)
    )
    for escaping in [true, false] {
      #expect(
        try SortedJSONEncoder(escapesSlashes: escaping).encode(state)
          == Self.foundation(escapingSlashes: escaping).encode(state)
      )
    }
  }

  /// Every step's state of the recordings the apps' tests replay, as the inspector serves it
  /// (now written by `SortedJSONEncoder`), is what Foundation writes for the same state.
  @Test(arguments: ["rpg-play", "movies-browse", "todo-shell"])
  func everyStateOfTheAppsRecordingsIsWrittenAsFoundationWritesIt(_ name: String) throws {
    for architecture in ["store", "reactor", "feedback"] {
      let parts = name.split(separator: "-").map(String.init)
      let url = RecordedTestFiles(
        app: parts[0],
        command: parts[1],
        architecture: architecture,
        target: "",
        prefix: ""
      ).recording
      let inspector = try Inspector(recordingAt: url.path)
      var index = 0
      while let message = try inspector.step(index) {
        let state = try #require(
          Self.state(of: message),
          "step \(index) of \(url.lastPathComponent)"
        )
        let again: Data
        switch name {
        case "rpg-play": again = try Self.reencoded(GameState.self, state)
        case "movies-browse": again = try Self.reencoded(MoviesState.self, state)
        default: again = try Self.reencoded(TodoState.self, state)
        }
        #expect(
          String(decoding: state, as: UTF8.self) == String(decoding: again, as: UTF8.self),
          "step \(index) of \(url.lastPathComponent)"
        )
        index += 1
      }
      #expect(index > 10)
    }
  }

  /// The state of a step's message: its last member, `…,"state":<state>}`.
  static func state(of message: Data) -> Data? {
    let bytes = Array(message)
    let marker = Array(#","state":"#.utf8)
    guard bytes.last == UInt8(ascii: "}"),
      let start = (0...(bytes.count - marker.count)).last(where: {
        Array(bytes[$0..<($0 + marker.count)]) == marker
      })
    else { return nil }
    return Data(bytes[(start + marker.count)..<(bytes.count - 1)])
  }

  /// `json` decoded as a `State`, then written by Foundation.
  static func reencoded<State: Codable>(_ type: State.Type, _ json: Data) throws -> Data {
    try foundation(escapingSlashes: true).encode(JSONDecoder().decode(State.self, from: json))
  }
}
