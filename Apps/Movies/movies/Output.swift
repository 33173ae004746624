import AppSupport
import CommandLineSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output of `movies`, written at once: a reader that went away (`movies list | head
/// -0`) ends the program quietly with ``ExitStatus/ioError``, as `cat` would.
///
/// It writes with `write(2)` rather than through the C stream `print` uses: a write larger than
/// the stream's buffer goes straight to the file, and when it fails only the stream's error flag
/// says so — a later `fflush` succeeds, having nothing left to write.
enum Output {
  /// Writes `text` and a newline.
  static func print(_ text: String) {
    write(text + "\n")
  }

  /// Writes `text`; exits with ``ExitStatus/ioError`` if it cannot be written.
  static func write(_ text: String) {
    // Whatever `print` buffered goes first (none of `movies`' own output does).
    StandardOutput.flush()
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { systemWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        exit(ExitStatus.ioError.rawValue)
      }
      bytes = bytes.dropFirst(written)
    }
  }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
