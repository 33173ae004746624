import AppSupport
import ArgumentParser
import CascadeStreams
import CommandLineSupport
import Foundation
import InspectorKit
import InspectorLink

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
      Serves FILE (a recording made with `rpg|movies|todo … --record FILE`, on any \
      architecture) on 127.0.0.1 and prints the page's URL, with a random token every request \
      must carry. It answers only that host, only GET, and only to the token; it runs until \
      interrupted (Ctrl-C ends it with status 0).

      FILE may also be a recording of an app of your own, made with CascadeMiddleware's \
      RecordingMiddleware(file:recordingStates: true): its steps are shown with the states \
      recorded after them, and with --follow the page follows the file as the app writes it.

      With `--live URL` instead of FILE, it attaches to a running app started with `--inspect` \
      (`rpg play`, `movies list|browse`, `todo …`; the app prints the URL on standard error) \
      and shows each input and state as the app processes it. There, "replay to here" makes \
      the app replay the inputs up to the step chosen into a fresh service, with no effect, \
      and shows whether it reaches the same state; the running app is left as it is.
      """ + "\n\n" + ExitStatus.helpText + "\n\n"
        + """
        In cascade-inspect: 64 for a bad command line (--follow with an app's session \
        recording); 65 for a file that is not a session \
        recording, is damaged, or is of an app the inspector does not read; 66 when the file \
        does not exist or cannot be read; 74 when the port cannot be listened on or standard \
        output is closed; 75 when the live endpoint cannot be reached or refuses the token.
        """,
    version: CascadeVersion.current
  )

  @Argument(help: ArgumentHelp("The session recording to inspect.", valueName: "FILE"))
  var file: String?

  @Option(
    help: ArgumentHelp(
      "A running app's live endpoint, as its --inspect printed it (ws://127.0.0.1:PORT/live?token=…).",
      valueName: "URL"
    )
  )
  var live: String?

  @Flag(
    help: "Follow FILE as it grows: a RecordingMiddleware recording of your own app, as it runs."
  )
  var follow = false

  @Option(help: "The port to listen on (0: a free one).")
  var port: UInt16 = 0

  @Option(
    name: .customLong("export-test"),
    help: ArgumentHelp(
      "Write FILE (an rpg recording) as a Swift Testing file that replays it through the "
        + "exhaustive TestStore, step by step, and exit: its suite is named after OUT.",
      valueName: "OUT.swift"
    )
  )
  var exportTest: String?

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
      StandardError.print(failure.message)
      Foundation.exit(failure.status.rawValue)
    } catch {
      StandardOutput.flush()
      Self.exitPrinting(error)
    }
  }

  func validate() throws {
    switch (file, live) {
    case (nil, nil): throw ValidationError("give a recording FILE, or --live URL")
    case (.some, .some): throw ValidationError("give a recording FILE or --live URL, not both")
    case (nil, .some(let live)):
      guard let url = URL(string: live), url.scheme == "ws",
        let host = url.host?.lowercased(), host == "127.0.0.1" || host == "localhost"
      else {
        throw ValidationError(
          "--live takes the ws://127.0.0.1:PORT/live?token=… URL an app printed"
        )
      }
    case (.some, nil): break
    }
    if follow, live != nil {
      throw ValidationError("--follow follows a recording FILE; --live follows an app already")
    }
    if let exportTest {
      guard file != nil, !follow else {
        throw ValidationError("--export-test makes a test of a recording FILE, without --follow")
      }
      guard RecordingTestExport.isSuiteName(Self.suiteName(of: exportTest)) else {
        throw ValidationError(
          "--export-test takes a file named after its suite, such as RPGPlayTests.swift"
        )
      }
    }
  }

  func run() async throws {
    if let exportTest, let file {
      try await Self.writeTest(of: file, to: exportTest)
      return
    }
    let inspector: Inspector
    do {
      if let live, let url = URL(string: live) {
        inspector = try await Inspector(live: url)
      } else {
        inspector = try Inspector(recordingAt: file ?? "", follow: follow)
      }
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

  /// The suite a generated test file is named after: its name without `.swift`.
  static func suiteName(of path: String) -> String {
    let name = URL(fileURLWithPath: path).lastPathComponent
    return name.hasSuffix(".swift") ? String(name.dropLast(6)) : ""
  }

  /// Writes the test made of the recording at `file` to `path` (`--export-test`).
  static func writeTest(of file: String, to path: String) async throws {
    let source: String
    do {
      source = try await RecordingTestExport.source(
        forRecordingAt: file,
        suite: suiteName(of: path),
        generator: "cascade-inspect \(file) --export-test \(path)"
      )
    } catch {
      throw Failure(message: error.description, status: error.exitStatus)
    }
    do {
      try SafeFile.write(Data(source.utf8), to: path, creatingDirectories: false)
    } catch {
      throw Failure(message: "cannot write \(path): \(error.reason)", status: .ioError)
    }
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
