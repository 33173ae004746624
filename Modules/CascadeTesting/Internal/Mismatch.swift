import CustomDump

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
