#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Input that is not UTF-8 is refused, never silently repaired.
///
/// Swift decodes `CommandLine.arguments` and `readLine()` leniently: invalid bytes become
/// U+FFFD and the program goes on with text the user never typed. These read the raw bytes and
/// refuse what does not decode.
public enum StrictInput {
  /// The first command-line argument that is not valid UTF-8, with its position (1 for the first
  /// argument after the program's name), or `nil` if every argument is.
  public static func firstInvalidArgument() -> Int? {
    let argv = CommandLine.unsafeArgv
    for index in 1..<Int(CommandLine.argc) {
      guard let pointer = argv[index] else { continue }
      if String(validatingCString: pointer) == nil { return index }
    }
    return nil
  }

  /// Decodes `bytes` as UTF-8, or `nil` if they are not valid UTF-8.
  public static func decode(_ bytes: some Collection<UInt8>) -> String? {
    String(validating: bytes, as: UTF8.self)
  }

  /// Reads one line from standard input (without its newline), refusing bytes that are not
  /// UTF-8.
  ///
  /// - Returns: The line, or `nil` at the end of input.
  /// - Throws: ``InvalidUTF8`` if the line is not valid UTF-8 (the line is consumed).
  public static func readLine() throws(InvalidUTF8) -> String? {
    var bytes: [UInt8] = []
    while true {
      let character = getchar()
      if character == EOF {
        if bytes.isEmpty { return nil }
        break
      }
      if character == 0x0A { break }
      bytes.append(UInt8(truncatingIfNeeded: character))
    }
    if bytes.last == 0x0D { bytes.removeLast() }
    guard let line = decode(bytes) else { throw InvalidUTF8(where: "standard input") }
    return line
  }
}

/// Text that is not valid UTF-8, and where it was found.
public struct InvalidUTF8: Error, CustomStringConvertible, Sendable {
  /// Where the text came from: `argument 2`, `standard input`, a file's name.
  public var location: String

  /// Creates the error for text found at `location`.
  public init(where location: String) {
    self.location = location
  }

  /// `argument 2 is not valid UTF-8`.
  public var description: String { "\(location) is not valid UTF-8" }
}
