import AppSupport
import CascadeStreams
import Foundation
import InspectorLink

/// A recording of an app of your own, made by CascadeMiddleware's `RecordingMiddleware` — with
/// `recordingStates: true`, the state after each input on the line after it — read step by step,
/// and with `follow`, followed as the app writes it: inspection of a running app through nothing
/// but the library.
///
/// The states are in the file, so nothing is reduced here: each step's state is the one recorded
/// after it (an input without a state line — a reactor's action, or a recording without states —
/// keeps the state before it), and its diff is ``JSONDiff``'s, of the two states' JSON, a path a
/// line. Every step is kept in memory, its state included: this is for debugging sessions, not
/// for recordings of millions of inputs (the apps' session recordings are indexed instead).
final class FollowedRecording: FedInspection {
  /// The recording's path.
  let path: String
  /// Whether the file is followed as it grows.
  let follows: Bool
  let feed = StepFeed()
  private let reader: LockedValue<Reader>
  private let stopped = LockedValue(false)

  /// How often a followed file is looked at for more lines.
  static var pollInterval: TimeInterval { 0.05 }

  /// Whether the file at `path` is a recording this type reads: a Cascade recording whose second
  /// line, if any, is not the start of an app's session (those are ``RecordingIndex``'s).
  static func reads(_ path: String) -> Bool {
    // Not a pipe, which would wait for its writer: ``RecordingIndex`` reports what it is.
    guard (try? SafeFile.requireRegularFile(path)) != nil,
      let handle = FileHandle(forReadingAtPath: path)
    else { return false }
    defer { try? handle.close() }
    let start = (try? handle.read(upToCount: 4096)) ?? Data()
    let lines = start.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
    guard let first = lines.first, first.starts(with: Data(#"{"cascadeRecording":"#.utf8)) else {
      return false
    }
    return lines.count < 2 || !lines[1].starts(with: Data(#"{"input":{"session":"#.utf8))
  }

  /// Reads the recording at `path`; with `follow`, goes on reading what is appended to it, on a
  /// thread of its own, until ``close()``.
  ///
  /// - Throws: ``InspectorError`` when the file is missing or unreadable, is not a Cascade
  ///   recording, or has a line that is not a record or a state (without `follow`, also when its
  ///   last line is cut short; a followed file's last line may still be being written).
  init(path: String, follow: Bool) throws(InspectorError) {
    self.path = path
    follows = follow
    do {
      try SafeFile.requireRegularFile(path)
    } catch {
      if error.kind == .missing { throw .missing(path: path) }
      throw .unreadable(path: path, reason: error.reason)
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
      throw .unreadable(path: path, reason: "it cannot be read")
    }
    reader = LockedValue(Reader(handle: handle))
    let name = URL(fileURLWithPath: path).lastPathComponent
    feed.setHeader(StepFeed.Header(app: name, architecture: "recorded", command: "recording"))
    feed.connect()
    let failure = reader.withLock { $0.readAppended(into: feed, final: !follow) }
    if let failure {
      throw .damaged(path: path, line: failure.line, reason: failure.reason)
    }
    guard reader.withLock({ $0.sawHeader }) else {
      throw .notARecording(path: path, reason: "line 1 is not a Cascade recording's header")
    }
    if follow {
      let thread = Thread { [self] in readAsItGrows() }
      thread.qualityOfService = .utility
      thread.start()
    } else {
      feed.end("the recording was read to its end")
      reader.withLock { $0.close() }
    }
  }

  /// Reads what is appended to the file, every ``pollInterval``, until ``close()`` or a damaged
  /// line.
  private func readAsItGrows() {
    while !stopped.withLock({ $0 }) {
      Thread.sleep(forTimeInterval: Self.pollInterval)
      if let failure = reader.withLock({ $0.readAppended(into: feed, final: false) }) {
        feed.end("line \(failure.line) is damaged: \(failure.reason)")
        break
      }
    }
    reader.withLock { $0.close() }
  }

  /// Stops following the file.
  func close() {
    stopped.withLock { $0 = true }
    feed.end("the inspector stopped following the recording")
  }

  var isLive: Bool { follows }

  var source: String { path }
}

/// Reads a recording's lines as they are appended, and turns them into steps.
private struct Reader: @unchecked Sendable {
  // Safety: used only under its `LockedValue`'s lock (a `FileHandle` is not `Sendable`).
  private var handle: FileHandle?
  /// The bytes of a line not yet ended by its newline.
  private var partial = Data()
  /// The number of the next line to read, from 1.
  private var lineNumber = 1
  private(set) var sawHeader = false
  /// The step read but not yet given its state: it takes the state on the line after it.
  private var pending: StepMessage.Step?
  /// The pending step's input, as JSON, for its message.
  private var pendingInput: Data?
  /// The last state recorded, as sorted JSON.
  private var state = Data("null".utf8)
  private var steps = 0

  /// The most bytes one line may have: a line longer is damage, not a record still written.
  static let longestLine = 1 << 28
  /// The most bytes read in one call: a file written faster than it is read is read on.
  static let mostPerRead = 1 << 26

  struct Failure {
    var line: Int
    var reason: String
  }

  init(handle: FileHandle) {
    self.handle = handle
  }

  mutating func close() {
    try? handle?.close()
    handle = nil
  }

  /// Reads the bytes appended since the last call, and adds a step to `feed` for each record.
  ///
  /// With `final`, the end of the file ends the last line and the last step; otherwise a line
  /// without its newline waits for the rest, and a step whose state did not come by the time
  /// the writing paused takes the state before it.
  mutating func readAppended(into feed: StepFeed, final: Bool) -> Failure? {
    guard let handle else { return nil }
    var grew = false
    var read = 0
    while read < Self.mostPerRead, let chunk = try? handle.read(upToCount: 1 << 20),
      !chunk.isEmpty
    {
      grew = true
      read += chunk.count
      partial.append(chunk)
      var start = partial.startIndex
      while let newline = partial[start...].firstIndex(of: 0x0A) {
        if let failure = take(Data(partial[start..<newline]), into: feed) { return failure }
        start = newline + 1
      }
      partial = Data(partial[start...])
      if partial.count > Self.longestLine {
        return Failure(line: lineNumber, reason: "it is over \(Self.longestLine) bytes long")
      }
    }
    if final, read >= Self.mostPerRead {
      return readAppended(into: feed, final: true)
    }
    if final, !partial.isEmpty {
      return Failure(line: lineNumber, reason: "the recording was cut short")
    }
    if final || !grew { finishPending(into: feed) }
    return nil
  }

  /// Takes one whole line.
  private mutating func take(_ line: Data, into feed: StepFeed) -> Failure? {
    defer { lineNumber += 1 }
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { return nil }
    guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
      return Failure(line: lineNumber, reason: "it is not JSON")
    }
    if !sawHeader {
      guard let version = object["cascadeRecording"] as? Int else {
        return Failure(line: lineNumber, reason: "it is not a Cascade recording's header")
      }
      guard version == 1 else {
        return Failure(
          line: lineNumber,
          reason: "it is in format version \(version), and this inspector reads version 1"
        )
      }
      sawHeader = true
      return nil
    }
    if let recorded = object["state"], object.count == 1 {
      let before = state
      state = Self.json(recorded)
      if let pending {
        finish(pending, diff: JSONDiff.text(from: before, to: state), into: feed)
        self.pending = nil
      }
      return nil
    }
    guard let input = object["input"], let sequence = object["sequence"] as? Int else {
      return Failure(line: lineNumber, reason: "it is not a record (an input and its sequence)")
    }
    finishPending(into: feed)
    var description = InputName.name(of: input)
    let mutation = object["mutation"]
    if let mutation { description += " → " + InputName.name(of: mutation) }
    if description.count > 240 { description = description.prefix(240) + "…" }
    pendingInput = StepMessage.payload(
      input: Self.json(input),
      mutation: mutation.map { Self.json($0) }
    )
    let kind: StepKind = mutation == nil ? .input : .mutation
    pending = StepMessage.Step(
      index: steps,
      sequence: sequence,
      kind: kind.description,
      description: description,
      source: StepSource.user.rawValue
    )
    steps += 1
    return nil
  }

  /// Adds the step still waiting for its state, with the state before it.
  private mutating func finishPending(into feed: StepFeed) {
    guard let pending else { return }
    finish(pending, diff: nil, into: feed)
    self.pending = nil
  }

  private func finish(_ line: StepMessage.Step, diff: String?, into feed: StepFeed) {
    feed.append(
      line,
      detail: StepMessage(step: line, diff: diff).encoded(withState: state, input: pendingInput)
    )
  }

  private static func json(_ value: Any) -> Data {
    let options: JSONSerialization.WritingOptions = [
      .sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes,
    ]
    return (try? JSONSerialization.data(withJSONObject: value, options: options))
      ?? Data("null".utf8)
  }

}
