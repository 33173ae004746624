import Foundation
import InspectorLink
import Testing

/// The live endpoint's steps are written and read without a second pass over their JSON: each
/// input is named from its encoding, a client reads a step's fields directly and splits a message
/// on its bytes — and each gives what the slower way gave (issue 36).
struct LiveReadingTests {
  indirect enum Payload: Encodable, Sendable {
    case attack
    case move(Int, Int)
    case many(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
    case say(String)
    case set(Bool, Double?, [Int])
    case named(name: String, seed: UInt64)
    case nested(Inner)
    case table([String: Int])
  }

  struct Inner: Encodable, Sendable {
    var script: String
    var flag: Payload
    var ratio: Double
  }

  /// A value that encodes a key twice: the last value given is the one written, and named.
  struct Twice: Encodable {
    enum Key: String, CodingKey { case value }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(1, forKey: .value)
      try container.encode("two", forKey: .value)
    }
  }

  static let values: [any Encodable & Sendable] = [
    "plain text",
    42,
    1.5,
    [1, 2, 3],
  ]

  static let payloads: [Payload] = [
    .attack,
    .move(3, -4),
    .many(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
    .say("a \"quote\"\n\\ back / é 🐉"),
    .set(true, nil, []),
    .set(false, 0.1, [1, 2]),
    .named(name: "Ada", seed: .max),
    .nested(Inner(script: "go", flag: .move(1, 2), ratio: 1e20)),
    .table(["b": 2, "a": 1, "_0": 0]),
  ]

  @Test(arguments: payloads)
  func anInputIsNamedFromItsEncodingAsFromItsJSON(_ payload: Payload) throws {
    let encoder = SortedJSONEncoder(escapesSlashes: false)
    let named = try encoder.encodeNamed(payload)
    #expect(named.json == (try encoder.encode(payload)))
    #expect(named.name == InputName.name(ofJSON: named.json))
  }

  @Test func valuesAndRepeatedKeysAreNamedAsTheirJSON() throws {
    let encoder = SortedJSONEncoder()
    for value in Self.values + [Twice()] {
      let named = try encoder.encodeNamed(value)
      #expect(named.name == InputName.name(ofJSON: named.json), "\(value)")
    }
    #expect(try encoder.encodeNamed(Twice()).name == #"{value: "two"}"#)
    #expect(try encoder.encodeNamed(Payload.attack, nameLimit: 3).name == "att…")
  }

  @Test(arguments: [
    #"{"description":"intent(attack)","index":3,"kind":"event","sequence":4,"source":"user"}"#,
    #"{"description":"say(\"hi\\n\")","index":0,"kind":"action","sequence":1,"source":"user"}"#,
    #"{"description":"é 🐉","index":12,"kind":"mutation","sequence":-1,"skipped":true,"source":"effect"}"#,
    #"{"description":"x","index":1.5,"kind":"event","sequence":2,"source":"user"}"#,
    #"{"description":"x","index":12345678901234567890,"kind":"event","sequence":2,"source":"user"}"#,
    #"{"description":"x","index":1,"kind":"event","source":"user"}"#,
    #"{"description":"x","index":1,"kind":"event","sequence":2,"source":"user","skipped":false}"#,
    #"{"description":"x","index":1,"kind":"event","sequence":2,"source":"user","skipped":"yes"}"#,
    #"[1,2]"#,
    // Escapes, read directly as the decoder reads them, and those it refuses.
    #"{"description":"monsterAppeared({name: \"Goblin\", hp: 3})","index":4,"kind":"event","sequence":5,"source":"effect"}"#,
    #"{"description":"\/ \b\f\n\r\t \u00e9 \u00E9 \ud83d\udc09 \u0000","index":0,"kind":"event","sequence":1,"source":"user"}"#,
    #"{"description":"lone \ud83d","index":0,"kind":"event","sequence":1,"source":"user"}"#,
    #"{"description":"lone \udc09","index":0,"kind":"event","sequence":1,"source":"user"}"#,
    #"{"description":"high then not low \ud83d\u0041","index":0,"kind":"event","sequence":1,"source":"user"}"#,
    #"{"description":"short \u00e","index":0,"kind":"event","sequence":1,"source":"user"}"#,
    #"{"description":"not hex \u00g9","index":0,"kind":"event","sequence":1,"source":"user"}"#,
    #"{"description":"unknown \x","index":0,"kind":"event","sequence":1,"source":"user"}"#,
    "{\"description\":\"raw\ttab\",\"index\":0,\"kind\":\"event\",\"sequence\":1,\"source\":\"user\"}",
    #"{"description":"ends in \\","index":0,"kind":"event","sequence":1,"source":"user"}"#,
  ])
  func aStepIsReadAsTheDecoderReadsIt(_ json: String) throws {
    let data = Data(json.utf8)
    let decoded = try? JSONDecoder().decode(StepMessage.Step.self, from: data)
    let read = StepMessage.Step.decoded(from: data)
    #expect(read.map(Fields.init) == decoded.map(Fields.init))
  }

  /// A step's fields, to compare.
  struct Fields: Equatable {
    var index, sequence: Int
    var kind, description, source: String
    var skipped: Bool?

    init(_ step: StepMessage.Step) {
      (index, sequence, kind, description, source, skipped) = (
        step.index, step.sequence, step.kind, step.description, step.source, step.skipped
      )
    }
  }

  @Test func aMessageOfStepsIsSplitIntoItsLines() {
    let steps = [
      #"{"diff":null,"step":{"description":"é\u0301 🐉","index":0}}"#,
      #"{"diff":"\n","step":{"description":"\r","index":1}}"#,
    ]
    #expect(LiveInspector.texts(of: steps.joined(separator: "\n")) == steps.map { $0[...] })
    // Empty lines are no texts; a line break may end the message, a step be alone in it.
    let spaced = steps.joined(separator: "\n\n") + "\n"
    #expect(LiveInspector.texts(of: spaced) == steps.map { $0[...] })
    #expect(LiveInspector.texts(of: steps[0]) == [steps[0][...]])
    let answer = "{\"traced\":{\"id\":1},\n\"trace\":{}}"
    #expect(LiveInspector.texts(of: answer) == [answer[...]])
  }
}
