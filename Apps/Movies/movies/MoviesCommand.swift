import AppSupport
import ArgumentParser
import CascadeStreams
import CommandLineSupport
import Foundation
import MoviesCore

/// `movies`: pages through a movie catalog served over HTTP, on any architecture.
@main
struct MoviesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "movies",
    abstract: "Pages through a movie catalog over HTTP (TMDB's discover shape).",
    discussion: """
      Without --api, browse and list start the catalog server embedded in the app on a free \
      loopback port. With --api, they use another server: `movies serve`, or TMDB itself \
      (--api https://api.themoviedb.org/3 --api-key KEY).

      Arguments and input must be UTF-8; titles are shown with their control characters \
      escaped (\\n, \\u{1B}), and exactly as sent with --json.

      \(ExitStatus.helpText)
      """,
    version: CascadeVersion.current,
    subcommands: [Browse.self, List.self, Serve.self, Bench.self]
  )

  /// Runs the command line: arguments that are not UTF-8 are refused (65) before anything is
  /// parsed, and output that cannot be written ends the program quietly (74).
  static func main() async {
    StandardOutput.prepare()
    if let index = StrictInput.firstInvalidArgument() {
      printError("movies: argument \(index) is not valid UTF-8: nothing was done")
      Foundation.exit(ExitStatus.dataError.rawValue)
    }
    do {
      var command = try parseAsRoot()
      if var asynchronous = command as? any AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
      StandardOutput.flush()
    } catch let error as ExitCode {
      StandardOutput.flush()
      Foundation.exit(error.rawValue)
    } catch let error as MoviesClient.InvalidURL {
      StandardOutput.flush()
      exitPrinting(fail(error.description, .usage))
    } catch {
      StandardOutput.flush()
      exitPrinting(error)
    }
  }
}
