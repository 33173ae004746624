import AppSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard output the way `cat` does: a reader that went away (`todo list | head -0`,
/// a closed pipe) ends the program quietly with ``ExitStatus/ioError``, not with a crash or a
/// success.
public enum StandardOutput {
  /// Ignores `SIGPIPE`; call once, first thing.
  ///
  /// A write to a closed pipe then fails with `EPIPE` (handled by ``write(_:)``) instead of
  /// killing the process.
  public static func prepare() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Writes `text` followed by a newline, as `print` does.
  public static func print(_ text: String) {
    write(text + "\n")
  }

  /// Writes `text` at once, after anything `print` buffered; exits with
  /// ``ExitStatus/ioError`` if the output is closed or cannot be written.
  ///
  /// The text goes to the file descriptor (`FileHandle`), which reports every failed write, also
  /// of a text larger than the C library's buffer (whose error `fflush` would not report).
  public static func write(_ text: String) {
    flush()
    do {
      try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    } catch {
      exitQuietly()
    }
  }

  /// Flushes what `print` buffered; call before exiting.
  ///
  /// Exits with ``ExitStatus/ioError`` if it cannot be written.
  public static func flush() {
    // `nil`: every output stream (standard output is a global the compiler cannot prove safe).
    if fflush(nil) != 0 { exitQuietly() }
  }

  private static func exitQuietly() -> Never {
    exit(ExitStatus.ioError.rawValue)
  }
}
