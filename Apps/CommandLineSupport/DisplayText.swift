/// Text as a command line shows it: what the user typed, with control characters made visible.
///
/// A title or name is stored exactly as typed, but shown with each control character escaped
/// (`\n`, `\t`, `\r`, `\\`, `\u{1B}`…), so that it can neither forge extra lines of a listing nor
/// send escape sequences to the terminal. JSON output keeps the text exact (JSON escapes it).
///
/// ```swift
/// print(DisplayText.escaped("Buy\nmilk\u{1B}[2J"))  // Buy\nmilk\u{1B}[2J
/// ```
public enum DisplayText {
  /// `text` with every control character (and the backslash, so that the escaping can be read
  /// back) written as an escape.
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case _ where isControl(scalar):
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\\" || isControl(scalar)
  }

  /// C0 and C1 controls, DEL, and the bidirectional overrides and isolates that reorder text.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
