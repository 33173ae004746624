// Fuzzes the session recording reader: `SessionRecording(contentsOf:command:)` (the headers
// probed, then every record decoded with CascadeMiddleware's `Recording(jsonLines:)`), reached
// as `rpg|movies|todo --replay` reach it, through each app's `replay…Session` on every
// architecture; a recording it accepts is then replayed whole into the app's service
// (`AppSession.replayRecording()`). A thrown `SessionReplayError` is a refused recording, as it
// should be.

import AppSupport
import Foundation
import FuzzSupport
import MoviesCore
import RPGCore
import TodoCore

/// The command a replay is run with: the one the first line names, so that the whole file is
/// read rather than refused at the header (a harness convenience, not a second reader).
func recordedCommand(_ data: Data) -> String {
  // The first record after the `{"cascadeRecording":1}` line.
  let lines = data.split(separator: UInt8(ascii: "\n"), maxSplits: 2)
  let firstLine = lines.count > 1 ? lines[1] : Data()
  let object = try? JSONSerialization.jsonObject(with: Data(firstLine)) as? [String: Any]
  // `{"input":{"session":{"app":…,"architecture":…,"command":…,"start":…}},"sequence":1,…}`
  let input = object?["input"] as? [String: Any]
  let session = input?["session"] as? [String: Any]
  return session?["command"] as? String ?? "play"
}

/// libFuzzer's entry point: reads one input as a recording of each app, on each architecture; always 0 (the input may join the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = fuzzData(start, count)
  let url = FuzzFile.shared.write(data, name: "recording.jsonl")
  let save = FuzzFile.shared.directory.appendingPathComponent("unused-save.json")
  let command = recordedCommand(data)
  for architecture in Architecture.allCases {
    if let session = try? replayGameSession(
      architecture,
      saveFile: save,
      log: { _ in },
      contentsOf: url,
      command: command
    ) {
      replayAll(session)
    }
    if let session = try? replayMoviesSession(architecture, contentsOf: url, command: command) {
      replayAll(session)
    }
    if let session = try? replayTodoSession(architecture, contentsOf: url, command: command) {
      replayAll(session)
    }
  }
  return 0
}

/// Replays every input of a recording that was read into its service (as `cascade-inspect` and a
/// replay do, with no front): the recorded inputs reach the app's reducers.
func replayAll<Intent, State>(_ session: AppSession<Intent, State>) {
  runToEnd { _ = try? await session.replayRecording() }
}

runFuzzer(fuzzOneInput)
