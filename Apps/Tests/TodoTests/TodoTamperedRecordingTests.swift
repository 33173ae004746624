import AppSupport
import AppTestSupport
import Foundation
import Testing

/// A todo recording edited after it was made — the list it started from, or a task it added —
/// is refused by `--replay` with 65 and one line, on every architecture, instead of printing
/// what the recorded run never saw.
@Suite struct TodoTamperedRecordingTests {
  /// Proves that the genuine recordings of `list` and `add` replay, and that each edited one is
  /// refused.
  ///
  /// The edits: the start of `list` (the tasks read from the database, in the session's header,
  /// checked by the header's own state check) and the title `add` stored (an input, checked by
  /// the state check after it). Standard output shows nothing of the edit.
  @Test(
    .enabled(if: TodoRecordReplayTests.executable != nil, "build the todo product first"),
    arguments: Architecture.allCases
  )
  func anEditedStartOrTaskIsRefused(_ architecture: Architecture) async throws {
    try await withTemporaryDirectory { directory in
      try await Self.check(architecture, in: directory)
    }
  }

  private static func check(_ architecture: Architecture, in directory: URL) async throws {
    try await TodoRecordReplayTests.seed(directory, architecture)
    let options = ["--db", "todo.sqlite", "--architecture", architecture.rawValue]
    for (command, arguments) in [("list", ["list"]), ("add", ["add", "Water the plants"])] {
      let recording = "\(command).jsonl"
      let live = try await TodoRecordReplayTests.todo(
        options + arguments + ["--record", recording],
        in: directory
      )
      #expect(live.succeeded, "\(command): \(live.summary)")
      let genuine = try await TodoRecordReplayTests.todo(
        options + arguments + ["--replay", recording],
        in: directory
      )
      #expect(genuine.succeeded, "\(command): \(genuine.summary)")
      #expect(genuine.output == live.output, "\(command)")

      // `list` shows "Buy milk" from its start; `add` records the new title in its input.
      let title = command == "list" ? "Buy milk" : "Water the plants"
      let text = try String(
        contentsOf: directory.appendingPathComponent(recording),
        encoding: .utf8
      )
      #expect(text.contains(title))
      try Data(text.replacingOccurrences(of: title, with: "Buy beer").utf8)
        .write(to: directory.appendingPathComponent("edited-\(recording)"))
      let run = try await TodoRecordReplayTests.todo(
        options + arguments + ["--replay", "edited-\(recording)"],
        in: directory
      )
      #expect(run.status == 65, "\(command): \(run.summary)")
      #expect(run.errorText.filter { $0 == "\n" }.count == 1, "\(command): \(run.errorText)")
      #expect(run.errorText.contains("the recording does not match this run"), "\(command)")
      #expect(!run.outputText.contains("Buy beer"), "\(command)")
    }
  }
}
