import CustomDump
import IssueReporting

/// The failure message for two values that differ: a CustomDump diff, `-` for expected and `+`
/// for actual.
func mismatchMessage<T>(_ title: String, expected: T, actual: T, note: String) -> String {
  let difference =
    diff(expected, actual)
    ?? (String(customDumping: expected).prefixingLines(with: "- ") + "\n"
      + String(customDumping: actual).prefixingLines(with: "+ "))
  let intro = note.isEmpty ? title : "\(title): \(note)"
  return """
    \(intro)

    \(difference.indented(by: 2))

    (Expected: -, Actual: +)
    """
}

/// Reports a test failure at the caller's location with a diff of `expected` and `actual`.
func reportMismatch<T>(
  _ title: String,
  expected: T,
  actual: T,
  note: String,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  reportIssue(
    mismatchMessage(title, expected: expected, actual: actual, note: note),
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
}

extension String {
  fileprivate func indented(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : indentation + $0 }
      .joined(separator: "\n")
  }

  fileprivate func prefixingLines(with prefix: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false)
      .map { prefix + $0 }
      .joined(separator: "\n")
  }
}
