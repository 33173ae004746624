import AppSupport
import ArgumentParser
import CommandLineSupport
import Foundation
import InspectorKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cascade-inspect`: serves a session recording to a browser, to step through it.
@main
struct InspectCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cascade-inspect",
    abstract: "Step through a session recording in a browser: its inputs, states and diffs.",
    discussion: """
      Serves FILE (a recording made with `rpg … --record FILE`) on 127.0.0.1 and prints the \
      page's URL, with a random token every request must carry. It answers only that host, \
      only GET, and only to the token; it runs until interrupted (Ctrl-C ends it with status 0).
      """ + "\n\n" + ExitStatus.helpText + "\n\n"
        + """
        In cascade-inspect: 64 for a bad command line; 65 for a file that is not a session \
        recording, is damaged, or is of an app the inspector does not read; 66 when the file \
        does not exist or cannot be read; 74 when the port cannot be listened on or standard \
        output is closed.
        """,
    version: CascadeVersion.current
  )

  @Argument(help: ArgumentHelp("The session recording to inspect.", valueName: "FILE"))
  var file: String

  @Option(help: "The port to listen on (0: a free one).")
  var port: UInt16 = 0

  /// Parses the command line and runs; a ``Failure`` ends it with its status and one line.
  static func main() async {
    StandardOutput.prepare()
    do {
      var command = try parseAsRoot()
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
      StandardOutput.flush()
    } catch let failure as Failure {
      StandardOutput.flush()
      FileHandle.standardError.write(Data((failure.message + "\n").utf8))
      Foundation.exit(failure.status.rawValue)
    } catch {
      StandardOutput.flush()
      Self.exit(withError: error)
    }
  }

  func run() async throws {
    let inspector: Inspector
    do {
      inspector = try Inspector(recordingAt: file)
    } catch {
      throw Failure(message: error.description, status: error.exitStatus)
    }
    let url: URL
    do {
      url = try await inspector.start(port: port)
    } catch {
      throw Failure(message: error.description, status: .ioError)
    }
    let signals = Self.endOnInterrupt()
    StandardOutput.print(url.absoluteString)
    // Serves until a signal ends the process.
    await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
    withExtendedLifetime(signals) {}
  }

  /// Makes SIGINT and SIGTERM end the process with status 0, after flushing standard output.
  ///
  /// - Returns: The signal sources, to keep alive while serving.
  static func endOnInterrupt() -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        StandardOutput.flush()
        Foundation.exit(ExitStatus.ok.rawValue)
      }
      source.resume()
      return source
    }
  }
}

/// A failure of the command: one line on standard error, and the status.
struct Failure: Error {
  var message: String
  var status: ExitStatus
}
