public import Foundation

/// Counts the lines of Swift source that are code: not blank and not only comments.
///
/// A line counts when anything but whitespace is left on it once `//` comments and `/* … */`
/// comments (which may span lines and nest, as Swift's do) are removed. Comment markers inside
/// string literals on one line are treated as text.
///
/// ```swift
/// LineCounter.count("""
///   /// A doc comment.
///   let x = 1  // a trailing comment
///
///   /* a block */
///   """)  // 1
/// ```
public enum LineCounter {
  /// The lines of code in `source`.
  public static func count(_ source: String) -> Int {
    var depth = 0
    var lines = 0
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      if hasCode(line, depth: &depth) { lines += 1 }
    }
    return lines
  }

  /// The lines of code in the file at `url`.
  ///
  /// - Throws: The error reading the file.
  public static func count(file url: URL) throws -> Int {
    count(try String(contentsOf: url, encoding: .utf8))
  }

  /// Whether `line` has code outside comments; `depth` is the nesting of `/* */` comments open
  /// at its start, updated to its end.
  private static func hasCode(_ line: Substring, depth: inout Int) -> Bool {
    let characters = Array(line.unicodeScalars)
    var index = 0
    var code = false
    var inString = false
    while index < characters.count {
      let character = characters[index]
      let next = index + 1 < characters.count ? characters[index + 1] : nil
      if depth > 0 {
        if character == "*", next == "/" {
          depth -= 1
          index += 2
        } else if character == "/", next == "*" {
          depth += 1
          index += 2
        } else {
          index += 1
        }
        continue
      }
      if inString {
        if character == "\\" {
          index += 2
          continue
        }
        if character == "\"" { inString = false }
        index += 1
        continue
      }
      if character == "/", next == "/" { break }
      if character == "/", next == "*" {
        depth += 1
        index += 2
        continue
      }
      if character == "\"" { inString = true }
      if !character.properties.isWhitespace { code = true }
      index += 1
    }
    return code
  }
}
