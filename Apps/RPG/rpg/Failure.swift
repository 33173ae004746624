import AppSupport
import CommandLineSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure the command reports on standard error, in one line, before exiting with `status`.
struct Failure: Error, CustomStringConvertible {
  /// What went wrong, for the player.
  var description: String
  /// The exit status.
  var status: ExitStatus

  init(_ description: String, status: ExitStatus) {
    self.description = description
    self.status = status
  }
}

extension Failure: LocalizedError {
  var errorDescription: String? { description }
}

/// Writes `rpg: message` to standard error, on one line: control characters in it (a name, a
/// path, a line typed) are shown escaped.
func printError(_ message: String) {
  let line = "rpg: \(DisplayText.escaped(message))\n"
  StandardError.write(line)
}

/// Ends the program with `status`.
func terminate(_ status: ExitStatus) -> Never {
  exit(status.rawValue)
}
