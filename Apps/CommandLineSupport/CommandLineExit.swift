import AppSupport
public import ArgumentParser
import Foundation

extension ParsableCommand {
  /// Ends the program for an error that parsing or running the command threw, as
  /// `exit(withError:)` would, but with what it prints written the apps' way.
  ///
  /// Help and version (ArgumentParser's `CleanExit`) go to standard output through
  /// ``StandardOutput``: a closed or full standard output ends the program with
  /// ``ExitStatus/ioError`` (74), as any other output does, instead of a success. Anything else
  /// (a usage error, an `ExitCode`) is written to standard error through ``StandardError``,
  /// which never traps, and the program ends with ArgumentParser's status for it.
  public static func exitPrinting(_ error: any Error) -> Never {
    StandardOutput.flush()
    let status = exitCode(for: error)
    let text = fullMessage(for: error)
    if status == .success {
      if !text.isEmpty { StandardOutput.print(text) }
      StandardOutput.flush()
    } else if !text.isEmpty {
      StandardError.print(text)
    }
    Foundation.exit(status.rawValue)
  }
}
