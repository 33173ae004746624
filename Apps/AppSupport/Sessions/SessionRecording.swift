public import CascadeMiddleware
public import Foundation

/// A session recording read back and checked: it is whole, of the expected app, architecture and
/// command, and every record decodes.
///
/// ```swift
/// let recording = try SessionRecording<StoreSession<MoviesApp>>(contentsOf: url, command: "list")
/// ```
public struct SessionRecording<Schema: SessionSchema>: Sendable {
  /// One record, with its sequence number in the recording.
  public typealias Entry = Recording<SessionRecord<Schema>>.Entry

  /// The file's path.
  public let path: String
  /// The session's first record.
  public let header: SessionHeader<Schema.Start>
  /// The records after the header, in order.
  public let entries: [Entry]
  /// The checker of the states the recording says each input led to: a replayed service is
  /// built with its ``StateVerifier/middleware(of:)``.
  public let verifier: StateVerifier

  /// Reads and checks the recording at `url`.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - command: The front's command that replays it: it must be the recorded one.
  /// - Throws: ``SessionReplayError``: ``SessionReplayError/missing(path:)`` when there is no
  ///   file; ``SessionReplayError/unreadable(path:reason:)``,
  ///   ``SessionReplayError/damaged(path:damage:)`` (a truncated or corrupt line, a newer format
  ///   version) or ``SessionReplayError/notThisSession(path:reason:)`` (another app,
  ///   architecture or command) otherwise.
  public init(contentsOf url: URL, command: String) throws(SessionReplayError) {
    let path = url.path
    let data: Data
    do {
      // A directory, a device or a pipe is refused at once.
      data = try SafeFile.read(path)
    } catch {
      let problem = FileProblem(error, path: path)
      if problem.kind == .missing { throw .missing(path: path) }
      throw .unreadable(path: path, reason: problem.reason)
    }
    let text = String(decoding: data, as: UTF8.self)
    // First only the headers, read leniently: a recording of another app or architecture is
    // named as such, not reported as a corrupt line.
    let probe = Recording<HeaderProbe>(jsonLines: text)
    if let damage = probe.damage { throw .damaged(path: path, damage: damage) }
    guard let first = probe.entries.first else {
      throw .notThisSession(path: path, reason: "it holds no record")
    }
    guard let found = first.input.session else {
      throw .notThisSession(
        path: path,
        reason: "it is not a session recording (its first record is not a session's start)"
      )
    }
    guard found.app == Schema.app else {
      throw .notThisSession(
        path: path,
        reason: "it is a recording of \(found.app ?? "another app"), not of \(Schema.app)"
      )
    }
    guard found.architecture == Schema.architecture.rawValue else {
      let architecture = found.architecture ?? "another"
      throw .notThisSession(
        path: path,
        reason: "it was recorded on the \(architecture) architecture: replay it with "
          + "--architecture \(architecture)"
      )
    }
    guard found.command == command else {
      let recorded = found.command ?? "another command"
      throw .notThisSession(
        path: path,
        reason: "it records `\(Schema.app) \(recorded)`, not `\(Schema.app) \(command)`: "
          + "replay it with the command that recorded it"
      )
    }
    let recording = Recording<SessionRecord<Schema>>(jsonLines: text)
    if let damage = recording.damage { throw .damaged(path: path, damage: damage) }
    guard case .start(let header)? = recording.entries.first?.input else {
      throw .notThisSession(path: path, reason: "its first record is not a session's start")
    }
    // What the session started from is what its header's check says.
    guard let check = header.check else {
      throw .diverged(
        path: path,
        reason: "the session's start (record #1) has no state check: the recording was made by "
          + "an older version of \(Schema.app), or changed"
      )
    }
    guard (try? StateCheck(of: header.start)) == check else {
      throw .diverged(
        path: path,
        reason: "what the session started from (record #1) is not what its state check says: "
          + "the recording was changed"
      )
    }
    self.path = path
    self.header = header
    entries = Array(recording.entries.dropFirst())
    verifier = StateVerifier(
      checks: entries.compactMap { entry in
        guard case .check(let check) = entry.input else { return nil }
        return (entry.sequence, check)
      }
    )
  }
}

/// Why a session recording cannot be replayed.
///
/// Its ``description`` is one line.
public enum SessionReplayError: Error, Sendable, Equatable, CustomStringConvertible {
  /// There is no file at the path.
  case missing(path: String)
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// A line could not be read: truncated, corrupt, or of a newer format version.
  case damaged(path: String, damage: RecordingDamage)
  /// The recording is not of this app, architecture or command.
  case notThisSession(path: String, reason: String)
  /// The recording does not go on as this run does (another intent, an input the front did not
  /// ask for, or an end too early or too late): it was not made by this command with these
  /// options, or was changed.
  case diverged(path: String, reason: String)

  /// How a command line that cannot replay the recording ends: ``ExitStatus/noInput`` (66) for
  /// a file that is missing or cannot be read (a directory, no permission),
  /// ``ExitStatus/dataError`` (65) otherwise.
  public var exitStatus: ExitStatus {
    switch self {
    case .missing, .unreadable: .noInput
    case .damaged, .notThisSession, .diverged: .dataError
    }
  }

  /// ``exitStatus``'s code.
  public var exitCode: Int32 { exitStatus.rawValue }

  /// `cannot replay <path>: <why>`, on one line.
  public var description: String {
    let text: String
    switch self {
    case .missing(let path): text = "cannot replay \(path): there is no such file"
    case .unreadable(let path, let reason): text = "cannot replay \(path): \(reason)"
    case .damaged(let path, let damage): text = "cannot replay \(path): \(damage)"
    case .notThisSession(let path, let reason): text = "cannot replay \(path): \(reason)"
    case .diverged(let path, let reason):
      text = "cannot replay \(path): the recording does not match this run: \(reason)"
    }
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}

/// A record read for its session header only: every JSON object decodes.
private struct HeaderProbe: Decodable, Sendable {
  struct Session: Decodable, Sendable {
    var app: String?
    var architecture: String?
    var command: String?
  }

  private enum Keys: String, CodingKey {
    case session
  }

  var session: Session?

  init(from decoder: any Decoder) throws {
    let container = try? decoder.container(keyedBy: Keys.self)
    session = try? container?.decodeIfPresent(Session.self, forKey: .session)
  }
}
