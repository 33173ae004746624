import Foundation
import InspectorLink
import Testing

/// The inspector's diff of two states' JSON (issue 36's scale bullet): path by path, descending
/// only into what differs, never reading out of bounds.
@Suite struct JSONDiffTests {
  static func diff(_ before: String, _ after: String, limit: Int = 200) -> String? {
    JSONDiff.text(from: Data(before.utf8), to: Data(after.utf8), limit: limit)
  }

  @Test func equalTextsHaveNoDiff() {
    #expect(Self.diff(#"{"a":[1,2],"b":"x"}"#, #"{"a":[1,2],"b":"x"}"#) == nil)
    // Only the spacing differs: no change either.
    #expect(Self.diff(#"{"a":[1,2]}"#, "{ \"a\" : [1, 2] }\n") == nil)
  }

  @Test func aChangedFieldIsNamedByItsPath() {
    let before = #"{"tasks":[{"done":false,"id":1},{"done":false,"id":2}],"toggles":4}"#
    let after = #"{"tasks":[{"done":false,"id":1},{"done":true,"id":2}],"toggles":5}"#
    #expect(
      Self.diff(before, after)
        == """
        - tasks[1].done: false
        + tasks[1].done: true
        - toggles: 4
        + toggles: 5
        """
    )
  }

  @Test func anInsertionOrARemovalIsOneLine() {
    #expect(Self.diff("[1,2,3,4]", "[1,2,9,3,4]") == "+ [2]: 9")
    #expect(Self.diff("[1,2,3,4]", "[1,3,4]") == "- [1]: 2")
    #expect(Self.diff(#"{"a":1}"#, #"{"a":1,"b":{"c":[]}}"#) == #"+ b: {"c":[]}"#)
    #expect(Self.diff(#"{"a":1,"b":2}"#, #"{"b":2}"#) == "- a: 1")
  }

  @Test func aFieldsDiffIsNamedByItsPath() {
    let text = JSONDiff.text(
      from: Data(#"[{"done":false}]"#.utf8),
      to: Data(#"[{"done":true}]"#.utf8),
      path: "tasks"
    )
    #expect(text == "- tasks[0].done: false\n+ tasks[0].done: true")
    #expect(
      JSONDiff.text(from: Data(#""a""#.utf8), to: Data(#""b""#.utf8), path: "searchText")
        == "- searchText: \"a\"\n+ searchText: \"b\""
    )
    #expect(JSONDiff.topLevelKeys(of: Data(#"{"b":1,"a":{"c":2}}"#.utf8)) == ["b", "a"])
    #expect(JSONDiff.topLevelKeys(of: Data("[1]".utf8)) == nil)
  }

  @Test func keysThatAreNotIdentifiersAreQuoted() {
    #expect(
      Self.diff(#"{"a b":{"1x":true}}"#, #"{"a b":{"1x":false}}"#)
        == """
        - ["a b"]["1x"]: true
        + ["a b"]["1x"]: false
        """
    )
  }

  @Test func stringsWithQuotesAndBracesAreReadWhole() {
    let before = #"{"s":"a \"{[\" b","t":1}"#
    let after = #"{"s":"a \"{[\" b","t":2}"#
    #expect(Self.diff(before, after) == "- t: 1\n+ t: 2")
  }

  @Test func aTypeChangeOrTheWholeValueIsShownWhole() {
    #expect(Self.diff(#"{"a":[1]}"#, #"{"a":{"b":1}}"#) == "- a: [1]\n+ a: {\"b\":1}")
    #expect(Self.diff("1", "2") == "- (the whole value): 1\n+ (the whole value): 2")
  }

  @Test func manyChangesStopAtTheLimit() throws {
    let before = "[" + (0..<100).map { _ in "0" }.joined(separator: ",") + "]"
    let after = "[" + (0..<100).map { _ in "1" }.joined(separator: ",") + "]"
    let text = try #require(Self.diff(before, after, limit: 10))
    let lines = text.split(separator: "\n")
    #expect(lines.count == 11)
    #expect(lines.first == "- [0]: 0")
    #expect(lines.last == "… more changes")
  }

  @Test func longValuesAreCut() throws {
    let long = String(repeating: "x", count: 1_000)
    let text = try #require(Self.diff(#"{"a":"\#(long)"}"#, #"{"a":"y"}"#))
    let first = try #require(text.split(separator: "\n").first)
    #expect(first.hasSuffix("…"))
    #expect(first.count < JSONDiff.valueLimit + 20)
  }

  @Test(arguments: [
    #"{"a":[1,2"#, #"{"a":"#, #"{"a" 1}"#, "[1,,2]", #"{"a":"unended}"#, "", "}", "[", #"""#,
  ])
  func malformedJSONIsComparedWholeWithoutReadingPastIt(_ damaged: String) throws {
    let text = try #require(Self.diff(#"{"a":[1,2]}"#, damaged))
    #expect(text.hasPrefix("- "))
    #expect(Self.diff(damaged, damaged) == nil)
  }

  @Test func nestingDeeperThanTheLimitIsComparedWhole() throws {
    let depth = JSONDiff.depthLimit + 10
    let before = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    let after = String(repeating: "[", count: depth) + "2" + String(repeating: "]", count: depth)
    let text = try #require(Self.diff(before, after))
    let path = String(repeating: "[0]", count: JSONDiff.depthLimit)
    #expect(text.hasPrefix("- " + path + ": ["), "\(text)")
  }

  @Test func aStateOfMegabytesWithOneChangeGivesOneChange() throws {
    struct Task: Codable {
      var done: Bool
      var id: Int
      var title: String
    }
    var tasks = (0..<30_000).map {
      Task(done: false, id: $0, title: "Task \($0): water the plants")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let before = try encoder.encode(tasks)
    tasks[17_000].done = true
    let after = try encoder.encode(tasks)
    #expect(
      JSONDiff.text(from: before, to: after) == "- [17000].done: false\n+ [17000].done: true"
    )
  }

  /// An object's members are found without reading their values: a trace of megabytes is handed
  /// on as its bytes.
  @Test func topLevelMembersAreTheKeysAndTheirValuesBytes() throws {
    let json = Data(#"{"traced":{"id":3},"trace":{"events":[1,"},\"x"]}, "last" : null}"#.utf8)
    let members = try #require(JSONDiff.topLevelMembers(of: json))
    #expect(members.map(\.key) == ["traced", "trace", "last"])
    let values = members.map { String(decoding: json[$0.value], as: UTF8.self) }
    #expect(values == [#"{"id":3}"#, #"{"events":[1,"},\"x"]}"#, "null"])
    #expect(JSONDiff.topLevelMembers(of: Data("[1]".utf8)) == nil)
    #expect(JSONDiff.topLevelMembers(of: Data(#"{"a":}"#.utf8)) == nil)
  }
}
