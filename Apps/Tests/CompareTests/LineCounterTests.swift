import CompareKit
import Foundation
import Testing

@Suite struct LineCounterTests {
  @Test func countsCodeLinesOnly() {
    let source = """
      /// A doc comment.
      import Foundation

      // A line comment.
      let x = 1  // a trailing comment
        /* a block comment */
      /* a block
         over lines
         /* nested */
         still a comment */
      let y = 2 /* a block */ + 3
      let url = "http://example.com"  // "//" in a string is text
      /* a block */ let z = 4
      \t
      }
      """
    #expect(LineCounter.count(source) == 6)
  }

  @Test func emptyAndCommentOnlySourcesHaveNoCode() {
    #expect(LineCounter.count("") == 0)
    #expect(LineCounter.count("\n\n   \n") == 0)
    #expect(LineCounter.count("// a\n/// b\n/* c\n d */\n") == 0)
  }

  @Test func countsAFile() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("compare-tests-\(UUID().uuidString).swift")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data("// header\n\nstruct A {\n  var b = 1\n}\n".utf8).write(to: file)
    #expect(try LineCounter.count(file: file) == 3)
  }

  @Test func aMissingFileThrows() {
    let file = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).swift")
    #expect(throws: (any Error).self) { try LineCounter.count(file: file) }
  }
}
