import AppSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard error without ever stopping the program: a message that cannot be
/// written (`2>/dev/full`, `2>&-`, a closed pipe) is lost, and the command goes on to end with
/// the status it would have had.
///
/// `FileHandle.standardError.write(_:)` traps when the write fails; every app and tool writes its
/// messages here instead.
public enum StandardError {
  /// Writes `text` followed by a newline.
  public static func print(_ text: String) {
    write(text + "\n")
  }

  /// Writes `text` at once, with as many `write(2)` calls as it takes; gives up quietly when
  /// standard error is closed, full, or a pipe nobody reads (`EBADF`, `ENOSPC`, `EPIPE`, …): the
  /// message is lost.
  public static func write(_ text: String) {
    ignoreBrokenPipes()
    _ = FileDescriptorWriting.writeAll(Data(text.utf8), to: STDERR_FILENO)
  }

  /// Makes a write to a pipe nobody reads fail with `EPIPE` instead of killing the process, as
  /// ``StandardOutput/prepare()`` does (called here too, for a program that did not call it).
  private static func ignoreBrokenPipes() {
    _ = brokenPipesIgnored
  }

  /// Set once, the first time anything is written.
  private static let brokenPipesIgnored: Bool = {
    signal(SIGPIPE, SIG_IGN)
    return true
  }()
}
