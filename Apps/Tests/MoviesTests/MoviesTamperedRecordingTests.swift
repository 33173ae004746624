import AppSupport
import AppTestSupport
import Foundation
import Testing

/// A movies recording whose film was edited after it was made is refused by `--replay` with 65
/// and one line, on every architecture, instead of printing the edited title (before the state
/// checks it was printed, with 0).
@Suite struct MoviesTamperedRecordingTests {
  /// Proves that the genuine recording of a page replays, and that the same recording with one
  /// film's title changed is refused: 65, one line saying the state is not the recorded one,
  /// nothing on standard output.
  @Test(
    .enabled(if: MoviesRecordReplayTests.executable != nil, "build the movies product first"),
    arguments: Architecture.allCases
  )
  func anEditedTitleIsRefused(_ architecture: Architecture) async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("movies-tampered-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let recording = directory.appendingPathComponent("genuine.jsonl")
    let list = ["list", "--pages", "1", "--architecture", architecture.rawValue]
    let live = try await MoviesRecordReplayTests.movies(list + ["--record", recording.path])
    #expect(live.succeeded, "\(live.summary)")
    let title = "The Godfather"
    #expect(live.outputText.contains(title))

    let genuine = try await MoviesRecordReplayTests.movies(list + ["--replay", recording.path])
    #expect(genuine.succeeded, "\(genuine.summary)")
    #expect(genuine.output == live.output)

    let text = try String(contentsOf: recording, encoding: .utf8)
    #expect(text.contains(title))
    let edited = directory.appendingPathComponent("edited.jsonl")
    try Data(text.replacingOccurrences(of: title, with: "The Codfather").utf8).write(to: edited)
    let run = try await MoviesRecordReplayTests.movies(list + ["--replay", edited.path])
    #expect(run.status == 65, "\(run.summary)")
    #expect(run.errorText.filter { $0 == "\n" }.count == 1, "\(run.errorText)")
    #expect(run.errorText.contains("the recording does not match this run"))
    #expect(run.errorText.contains("is not the one recorded at record #"))
    #expect(!run.outputText.contains("Codfather"))
  }
}
