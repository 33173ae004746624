import AppSupport
import AppTestSupport
import Foundation
import MoviesServer
import Testing

/// `movies list|browse --record FILE`, then `--replay FILE`, run as a user runs them (the built
/// executable): the replay prints byte for byte what the live run printed, without asking any
/// server; a recording that cannot be replayed is refused with one line and its exit status.
@Suite struct MoviesRecordReplayTests {
  static let executable = builtProduct(named: "movies")

  /// Runs `movies`; killed after 60 seconds.
  static func movies(_ arguments: [String], input: ChildInput = .text("")) async throws -> ChildRun
  {
    let executable = try #require(executable, "build the movies product first")
    let run = try await runChild(executable, arguments, input: input)
    #expect(!run.timedOut && !run.signalled, "movies \(arguments): \(run.summary)")
    return run
  }

  /// A fresh file path for a recording, removed afterwards.
  static func withRecording<T>(_ body: (String) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("movies-recording-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url.path)
  }

  /// Proves that a replayed `list` makes no HTTP request and prints exactly the films the live
  /// run printed: replayed while the recorded server still runs, it asks it for no page (its
  /// count of requests does not move), and replayed again once that server is stopped, it prints
  /// the same — on every architecture.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func aReplayedListPrintsTheSameFilmsWithoutAnyRequest(
    _ architecture: Architecture
  ) async throws {
    try await Self.withRecording { recording in
      // A generous timeout: the server runs in this process, which a full test run keeps busy.
      let arguments = [
        "list", "--pages", "2", "--architecture", architecture.rawValue, "--timeout", "50",
      ]
      let (live, replayed) = try await withServer { server, url in
        let live = try await Self.movies(arguments + ["--api", url, "--record", recording])
        #expect(live.succeeded, "\(live.summary)")
        let asked = server.requestedPages
        #expect(asked == [1, 2])
        let replayed = try await Self.movies(arguments + ["--api", url, "--replay", recording])
        #expect(replayed.succeeded, "\(replayed.summary)")
        #expect(server.requestedPages == asked, "the replay asked the server for a page")
        return (live, replayed)
      }
      #expect(live.outputText.split(separator: "\n").count == 40)
      #expect(replayed.output == live.output)
      // The server is stopped now: there is nothing to ask.
      let offline = try await Self.movies(arguments + ["--replay", recording])
      #expect(offline.succeeded, "\(offline.summary)")
      #expect(offline.output == live.output)
    }
  }

  /// Proves that a replayed `browse` session prints exactly what the live one printed — the
  /// embedded server's address, every page, the failed page and its retry, the messages — and
  /// says the same on standard error, with standard input closed: the keys come from the
  /// recording, and no server is started.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func aReplayedBrowseSessionPrintsWhatTheLiveOnePrinted(
    _ architecture: Architecture
  ) async throws {
    try await Self.withRecording { recording in
      let arguments = ["browse", "--architecture", architecture.rawValue]
      let keys = "n\nbogus\nr\nn\nt\n\nn\nq\n"
      let live = try await Self.movies(
        arguments + ["--fail-rate", "0.3", "--seed", "5", "--record", recording],
        input: .text(keys)
      )
      #expect(live.succeeded, "\(live.summary)")
      #expect(live.outputText.contains("Page 1 of 17"))
      // The seeded failure draws fail a page, which the session retries.
      #expect(live.outputText.contains("failed: the server answered HTTP 500"))
      #expect(live.errorText.contains("unknown command 'bogus'"))

      let replayed = try await Self.movies(arguments + ["--replay", recording], input: .closed)
      #expect(replayed.succeeded, "\(replayed.summary)")
      #expect(replayed.output == live.output)
      #expect(replayed.errors == live.errors)
    }
  }

  /// Proves that a `list` whose page failed replays to the same failure: the same status (75),
  /// the same (empty) output and the same message, naming the recorded server's address.
  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: Architecture.allCases
  )
  func aReplayedFailedListFailsTheSameWay(_ architecture: Architecture) async throws {
    try await Self.withRecording { recording in
      let arguments = ["list", "--all", "--architecture", architecture.rawValue]
      let live = try await Self.movies(arguments + ["--fail-rate", "1", "--record", recording])
      #expect(live.status == 75, "\(live.summary)")
      #expect(live.errorText.contains("the server answered HTTP 500"))

      let replayed = try await Self.movies(arguments + ["--replay", recording])
      #expect(replayed.status == live.status, "\(replayed.summary)")
      #expect(replayed.output == live.output)
      #expect(replayed.errors == live.errors)
    }
  }

  /// Proves that a recording that cannot be replayed is refused before anything runs: a
  /// missing file with status 66; a truncated one, one of another architecture, another
  /// command (`browse` replayed as `list`) or another app, and a `list` replayed with more
  /// pages than it recorded, with status 65 — each with one line on standard error naming the
  /// file and why; `--record` with `--replay` is a usage error (64).
  @Test(.enabled(if: executable != nil, "the movies executable was not found next to the tests"))
  func aBadRecordingIsRefusedWithOneLineAndItsExitStatus() async throws {
    try await Self.withRecording { recording in
      let live = try await Self.movies(
        ["list", "--pages", "1", "--architecture", "feedback", "--record", recording]
      )
      #expect(live.succeeded, "\(live.summary)")
      let text = try String(contentsOfFile: recording, encoding: .utf8)
      let lines = text.split(separator: "\n").map(String.init)
      let truncated = recording + ".truncated"
      try Data((lines.dropLast().joined(separator: "\n") + "\n" + lines.last!.prefix(20)).utf8)
        .write(to: URL(fileURLWithPath: truncated))
      let otherApp = recording + ".rpg"
      try Data(
        (lines[0] + "\n"
          + lines[1].replacingOccurrences(of: #""app":"movies""#, with: #""app":"rpg""#)
          + "\n").utf8
      ).write(to: URL(fileURLWithPath: otherApp))
      defer {
        try? FileManager.default.removeItem(atPath: truncated)
        try? FileManager.default.removeItem(atPath: otherApp)
      }
      let list = ["list", "--pages", "1", "--architecture", "feedback"]
      let cases: [(arguments: [String], status: Int32, message: String)] = [
        (list + ["--replay", recording + ".none"], 66, "there is no such file"),
        (list + ["--replay", truncated], 65, "line \(lines.count): truncated recording"),
        (
          ["list", "--pages", "1", "--architecture", "store", "--replay", recording], 65,
          "it was recorded on the feedback architecture: replay it with --architecture feedback"
        ),
        (
          ["browse", "--architecture", "feedback", "--replay", recording], 65,
          "it records `movies list`, not `movies browse`"
        ),
        (list + ["--replay", otherApp], 65, "it is a recording of rpg, not of movies"),
        (
          ["list", "--pages", "2", "--architecture", "feedback", "--replay", recording], 65,
          "this run expects the intent loadNextPage, and the recording ends"
        ),
      ]
      for (arguments, status, message) in cases {
        let run = try await Self.movies(arguments, input: .closed)
        #expect(run.status == status, "movies \(arguments): \(run.summary)")
        #expect(run.errorText.hasPrefix("movies: cannot replay "), "movies \(arguments)")
        #expect(run.errorText.contains(message), "movies \(arguments): \(run.errorText)")
        #expect(
          run.errorText.split(separator: "\n").count == 1,
          "movies \(arguments) said more than one line: \(run.errorText)"
        )
        #expect(run.output.isEmpty, "movies \(arguments) printed \(run.outputText)")
      }
      let both = try await Self.movies(list + ["--record", recording, "--replay", recording])
      #expect(both.status == 64, "\(both.summary)")
      #expect(both.errorText.contains("--record and --replay exclude each other"))
    }
  }
}
