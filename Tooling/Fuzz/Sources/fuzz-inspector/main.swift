// Fuzzes the inspector's reading of a recording: `Inspector(recordingAt:)`, as
// `cascade-inspect FILE` opens one — an app's session recording indexed line by line over the
// mapped file (`RecordingIndex`, the samples' only raw-buffer code), or a `RecordingMiddleware`
// recording read whole (`FollowedRecording`) — then what the page asks of it: the summary, the
// timeline of every kind (each input named from its JSON, `InputName`), a search, a skip, and the
// state, input and difference of each step, which replays the recorded inputs through the app's
// reducer. A thrown `InspectorError`, or a step that cannot be read, is
// a refused recording, as it should be.

import Foundation
import FuzzSupport
import InspectorKit
import InspectorLink

/// The most steps whose states are asked for: a long input is still read whole by the index and
/// the timeline, and its last step is asked for too.
let stepsAsked = 64

/// libFuzzer's entry point: opens one input as a recording and reads every part of it the page
/// reads; always 0 (the input may join the corpus).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let url = FuzzFile.shared.write(fuzzData(start, count), name: "recording.jsonl")
  guard let inspector = try? Inspector(recordingAt: url.path, token: "fuzz") else { return 0 }
  _ = inspector.summary()
  _ = inspector.steps(from: 0, count: 1_000)
  for kind in StepKind.allCases {
    _ = inspector.steps(from: 1, count: 10, kind: kind)
  }
  _ = inspector.steps(from: 0, count: 10, search: "a")
  // A skipped step: the states after it recomputed without it.
  _ = inspector.toggleSkip(1)
  _ = try? inspector.step(2)
  var index = 0
  while index < stepsAsked, (try? inspector.step(index)) != nil {
    index += 1
  }
  // The last step, when the loop stopped short of it: the replay from the start to the end.
  let steps = try? JSONSerialization.jsonObject(with: inspector.summary()) as? [String: Any]
  if let total = steps?["steps"] as? Int, total > stepsAsked {
    _ = try? inspector.step(total - 1)
  }
  _ = try? inspector.step(-1)
  return 0
}

runFuzzer(fuzzOneInput)
