import Foundation
import InspectorLink
import Testing

/// Inputs are named as their Swift source spells them, from their `Codable` JSON (issue 36).
struct InputNameTests {
  @Test(arguments: [
    (#"{"attack":{}}"#, "attack"),
    (#"{"intent":{"_0":{"attack":{}}}}"#, "intent(attack)"),
    (#"{"newGame":{"seed":42,"name":"Ada"}}"#, #"newGame(name: "Ada", seed: 42)"#),
    (#"{"move":{"_1":"b","_0":"a","_10":"k","_2":"c"}}"#, #"move("a", "b", "c", "k")"#),
    (#"{"page":{"_0":{"page":1},"by":[1,2]}}"#, "page({page: 1}, by: [1, 2])"),
    (#"{"name":"script","value":{"flag":{"_0":false}}}"#, #"{name: "script", value: flag(false)}"#),
    (#"{"set":{"_0":true,"_1":1,"_2":0,"_3":1.5,"_4":null}}"#, "set(true, 1, 0, 1.5, nil)"),
    (#"{"say":{"_0":"a \"quote\"\n\\ back"}}"#, #"say("a \"quote\"\n\\ back")"#),
    (#""03b4e8""#, #""03b4e8""#),
    (#"[]"#, "[]"),
    (#"{}"#, "{}"),
    (#"{"one":2}"#, "{one: 2}"),
  ])
  func namesAnInputAsItsSourceSpellsIt(_ json: String, _ expected: String) throws {
    #expect(InputName.name(ofJSON: Data(json.utf8)) == expected)
  }

  @Test func notJSONHasNoName() {
    #expect(InputName.name(ofJSON: Data("{".utf8)) == nil)
  }

  /// A hostile line costs at most the limit: a name stops there, and nesting beyond the depth
  /// limit is not followed.
  @Test func aNameIsBoundedInLengthAndDepth() throws {
    let long = #"{"say":{"_0":""# + String(repeating: "x", count: 10_000) + #""}}"#
    let name = try #require(InputName.name(ofJSON: Data(long.utf8), limit: 50))
    #expect(name == #"say(""# + String(repeating: "x", count: 45) + "…")

    let depth = 200
    let deep =
      String(repeating: #"{"a":{"_0":"#, count: depth) + "1" + String(repeating: "}}", count: depth)
    let nested = try #require(InputName.name(ofJSON: Data(deep.utf8), limit: 10_000))
    let followed = String(repeating: "a(", count: InputName.depthLimit)
    #expect(nested == followed + "…" + String(repeating: ")", count: InputName.depthLimit))
  }
}
