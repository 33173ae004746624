import AppSupport
import AppTestSupport
import Foundation
import Testing

/// The built `movies` with a standard error it cannot write, and help or version into a closed
/// standard output.
@Suite struct MoviesStandardStreamTests {
  static let executable = builtProduct(named: "movies")

  /// Runs `movies`, through `/bin/sh` when `shell` redirects something; killed after 60 seconds.
  static func movies(
    _ arguments: [String],
    output: ChildOutput = .file,
    shell: String? = nil
  ) async throws -> ChildRun {
    let executable = try #require(executable, "build the movies product first")
    let run = try await runChild(executable, arguments, output: output, shell: shell)
    #expect(!run.timedOut && !run.signalled, "movies \(arguments): \(run.summary)")
    return run
  }

  /// Proves that a failed page's message, and a `--retries` notice, into a full (`2>/dev/full`)
  /// or closed (`2>&-`) standard error are lost without losing the exit status: it used to trap
  /// (SIGILL, 132).
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: [[], ["--retries", "1"]]
  )
  func aFullOrClosedStandardErrorKeepsTheStatus(_ retries: [String]) async throws {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    let arguments = ["list", "--pages", "1", "--api", "http://127.0.0.1:9"] + retries
    let told = try await Self.movies(arguments)
    #expect(told.status == ExitStatus.temporaryFailure.rawValue, "\(told.summary)")
    #expect(told.errorText.hasPrefix("movies: "), "\(told.errorText)")
    if !retries.isEmpty {
      // The notice of the retry, then the failure.
      #expect(told.errorText.filter { $0 == "\n" }.count == 2, "\(told.errorText)")
    }
    for redirect in ["2>/dev/full", "2>&-"] {
      let lost = try await Self.movies(arguments, shell: #"exec "$@" "# + redirect)
      #expect(lost.status == told.status, "movies \(arguments) \(redirect): \(lost.summary)")
    }
  }

  /// Proves that `--version` and `--help` into a closed standard output (`>&-`) or a pipe nobody
  /// reads (`| head -0`) end with 74, as other output does, not 0.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: [["--version"], ["--help"], ["list", "--help"]]
  )
  func helpAndVersionIntoAClosedOutputEndWith74(_ arguments: [String]) async throws {
    let open = try await Self.movies(arguments)
    #expect(open.succeeded && !open.output.isEmpty, "\(open.summary)")
    let closed = try await Self.movies(arguments, shell: #"exec "$@" >&-"#)
    #expect(closed.status == ExitStatus.ioError.rawValue, "\(closed.summary)")
    #expect(closed.errors.isEmpty, "\(closed.errorText)")
    let piped = try await Self.movies(arguments, output: .closedPipe)
    #expect(piped.status == ExitStatus.ioError.rawValue, "\(piped.summary)")
    #expect(piped.errors.isEmpty, "\(piped.errorText)")
  }
}
