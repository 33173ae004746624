import AppSupport
import Foundation
import InspectorLink

/// A session recording opened for stepping through: the file mapped into memory, where each of
/// its lines starts, and what each line is — found by looking at a few bytes per line, without
/// decoding any record but the session's header.
///
/// Opening reads the file once, so that a recording of a million inputs opens in well under a
/// second; each record is decoded only when a step is asked for.
struct RecordingIndex: Sendable {
  /// The file's path.
  let path: String
  /// The file's bytes.
  let data: Data
  /// The session's header.
  let header: Header
  /// The session's start record (line 2), for what a replay needs to start (``start(as:)``).
  private let sessionLine: Data
  /// Where the line of each step starts in ``data``.
  private let starts: [Int]
  /// Where the line after each step's starts (one past its newline).
  private let ends: [Int]
  /// The kind of each step.
  let kinds: [StepKind]
  /// How many steps there are of each kind.
  let kindCounts: [StepKind: Int]

  /// The session's first record: which app, architecture and command.
  struct Header: Sendable, Decodable {
    var app: String
    var architecture: Architecture
    var command: String
  }

  /// The number of steps: the records after the session's header.
  var count: Int { kinds.count }

  /// Opens the recording at `path` and indexes its lines.
  ///
  /// - Throws: ``InspectorError`` when the file is missing or unreadable, is not a session
  ///   recording, or one of its lines is cut short or not a record.
  init(path: String) throws(InspectorError) {
    let data: Data
    do {
      // Mapped, not read: only a regular file (a pipe would wait for its writer).
      let size = try SafeFile.requireRegularFile(path)
      // An empty file is not mapped (see `requireRegularFile`); it is refused below.
      data =
        size == 0
        ? Data() : try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    } catch {
      let problem = FileProblem(error, path: path)
      if problem.kind == .missing { throw .missing(path: path) }
      throw .unreadable(path: path, reason: problem.reason)
    }
    self.path = path
    self.data = data
    let lines = Self.lineStarts(of: data)
    // Line 1: the format's header; line 2: the session's start.
    guard lines.count >= 3 else {
      throw .notARecording(path: path, reason: "it holds no session record")
    }
    let formatLine = Self.line(data, from: lines[0], to: lines[1])
    guard let format = try? JSONDecoder().decode(FormatLine.self, from: formatLine) else {
      throw .notARecording(path: path, reason: "line 1 is not a Cascade recording's header")
    }
    guard format.cascadeRecording == 1 else {
      throw .notARecording(
        path: path,
        reason: "it is in format version \(format.cascadeRecording), and this inspector reads "
          + "version 1"
      )
    }
    let sessionLine = Self.line(data, from: lines[1], to: lines[2])
    guard let session = try? JSONDecoder().decode(SessionLine.self, from: sessionLine) else {
      throw .notARecording(
        path: path,
        reason: "it is not a session recording (line 2 is not a session's start)"
      )
    }
    header = session.input.session
    self.sessionLine = sessionLine
    let lineKinds = try Self.kinds(
      of: data,
      starts: Array(lines[2...]),
      architecture: header.architecture,
      path: path
    )
    // A state check (`{"input":{"check":…}}`, after each input) is not a step: a replay
    // verifies it, and the inspector shows the states it computes.
    var starts: [Int] = []
    var ends: [Int] = []
    var kinds: [StepKind] = []
    starts.reserveCapacity(lineKinds.count)
    ends.reserveCapacity(lineKinds.count)
    kinds.reserveCapacity(lineKinds.count)
    for (offset, kind) in lineKinds.enumerated() {
      guard let kind else { continue }
      starts.append(lines[2 + offset])
      ends.append(lines[3 + offset])
      kinds.append(kind)
    }
    self.starts = starts
    self.ends = ends
    self.kinds = kinds
    var counts = [Int](repeating: 0, count: StepKind.allCases.count)
    for kind in kinds { counts[Int(kind.rawValue)] += 1 }
    kindCounts = Dictionary(
      uniqueKeysWithValues: StepKind.allCases.map { ($0, counts[Int($0.rawValue)]) }
    )
  }

  /// What the session's header says the service started from (its `start`: the Todo list read
  /// from the database).
  ///
  /// - Throws: ``InspectorError/notARecording(path:reason:)`` when the header holds no such
  ///   value.
  func start<Start: Decodable>(as type: Start.Type) throws(InspectorError) -> Start {
    do {
      return try JSONDecoder().decode(StartLine<Start>.self, from: sessionLine).input.session.start
    } catch {
      throw .notARecording(
        path: path,
        reason: "line 2 does not say what the \(header.app) session started from (\(error))"
      )
    }
  }

  /// The bytes of step `index`'s line, without its newline.
  func line(at index: Int) -> Data {
    Self.line(data, from: starts[index], to: ends[index])
  }

  /// The line between two line starts, without its newline.
  private static func line(_ data: Data, from start: Int, to next: Int) -> Data {
    data.subdata(in: (data.startIndex + start)..<(data.startIndex + next - 1))
  }

  /// Where each line starts, then the end of the file; a last line without a newline is kept
  /// (and found to be cut short by ``kinds(of:starts:architecture:path:)``).
  private static func lineStarts(of data: Data) -> [Int] {
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [Int] in
      guard let base = bytes.baseAddress, bytes.count > 0 else { return [0] }
      var starts: [Int] = [0]
      var offset = 0
      while offset < bytes.count {
        guard let found = memchr(base + offset, 0x0A, bytes.count - offset) else {
          // No final newline: the end of the file ends the last line, one byte short.
          starts.append(bytes.count + 1)
          return starts
        }
        offset = base.distance(to: UnsafeRawPointer(found)) + 1
        starts.append(offset)
      }
      return starts
    }
  }

  /// Each line's kind, from its first bytes: `{"input":{"<key>"`, the keys sorted as
  /// ``AppSupport/SessionRecorder`` writes them; `nil` for a state check, which is not a step.
  private static func kinds(
    of data: Data,
    starts: [Int],
    architecture: Architecture,
    path: String
  ) throws(InspectorError) -> [StepKind?] {
    let prefix = Array(#"{"input":{""#.utf8)
    let mutation = Array(#""mutation":"#.utf8)
    let inputKind: StepKind = architecture == .reactor ? .action : .event
    var kinds: [StepKind?] = []
    kinds.reserveCapacity(starts.count - 1)
    var failure: InspectorError?
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      for index in 0..<(starts.count - 1) {
        let start = starts[index]
        let end = starts[index + 1] - 1
        let lineNumber = index + 3
        guard end <= bytes.count, end - start > prefix.count, bytes[end - 1] == UInt8(ascii: "}")
        else {
          let isLast = index == starts.count - 2
          let cutShort = isLast && bytes.last != 0x0A
          failure = .damaged(
            path: path,
            line: lineNumber,
            reason: cutShort ? "the recording was cut short" : "it is not a record"
          )
          return
        }
        guard prefix.indices.allSatisfy({ bytes[start + $0] == prefix[$0] }) else {
          failure = .damaged(path: path, line: lineNumber, reason: "it is not a session record")
          return
        }
        let key = start + prefix.count
        if matches(bytes, at: key, #"check""#) {
          kinds.append(nil)
        } else if matches(bytes, at: key, #"intent""#) {
          kinds.append(.intent)
        } else if matches(bytes, at: key, #"fact""#) {
          kinds.append(.fact)
        } else if matches(bytes, at: key, #"session""#) {
          failure = .damaged(path: path, line: lineNumber, reason: "it starts another session")
          return
        } else if architecture == .reactor,
          contains(bytes, from: key, to: end, mutation)
        {
          kinds.append(.mutation)
        } else {
          kinds.append(inputKind)
        }
      }
    }
    if let failure { throw failure }
    return kinds
  }

  private static func matches(
    _ bytes: UnsafeRawBufferPointer,
    at offset: Int,
    _ text: String
  )
    -> Bool
  {
    var offset = offset
    for byte in text.utf8 {
      guard offset < bytes.count, bytes[offset] == byte else { return false }
      offset += 1
    }
    return true
  }

  private static func contains(
    _ bytes: UnsafeRawBufferPointer,
    from start: Int,
    to end: Int,
    _ needle: [UInt8]
  ) -> Bool {
    guard end - start >= needle.count else { return false }
    var offset = start
    while offset <= end - needle.count {
      if bytes[offset] == needle[0], needle.indices.allSatisfy({ bytes[offset + $0] == needle[$0] })
      {
        return true
      }
      offset += 1
    }
    return false
  }
}

/// A recording's first line.
private struct FormatLine: Decodable {
  var cascadeRecording: Int
}

/// A session recording's second line, read for what the session started from.
private struct StartLine<Start: Decodable>: Decodable {
  struct Input: Decodable {
    struct Session: Decodable { var start: Start }
    var session: Session
  }

  var input: Input
}

/// A session recording's second line.
private struct SessionLine: Decodable {
  struct Input: Decodable {
    var session: RecordingIndex.Header
  }

  var input: Input
}
