public import AppSupport

/// Why a recording cannot be inspected; its ``description`` is one line.
public enum InspectorError: Error, Sendable, Equatable, CustomStringConvertible {
  /// There is no file at the path.
  case missing(path: String)
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not a session recording.
  case notARecording(path: String, reason: String)
  /// A line is cut short or is not a record.
  case damaged(path: String, line: Int, reason: String)
  /// The recording is of an app the inspector does not read.
  case unknownApp(path: String, app: String)
  /// The live endpoint (`--live URL`) could not be reached, refused the token, or sent no hello.
  case liveUnreachable(url: String, reason: String)
  /// `--follow` was given an app's session recording, which is read once (an app is followed
  /// live with its `--inspect`).
  case cannotFollow(path: String, app: String)
  /// The recording could not be made into a test (`--export-test`): it does not replay, or a
  /// state does not come back from its JSON the same.
  case cannotMakeTest(path: String, reason: String)

  /// How `cascade-inspect` ends: ``AppSupport/ExitStatus/noInput`` (66) for a missing or
  /// unreadable file, ``AppSupport/ExitStatus/temporaryFailure`` (75) for a live endpoint that
  /// cannot be reached, ``AppSupport/ExitStatus/usage`` (64) for `--follow` on an app's session
  /// recording, ``AppSupport/ExitStatus/dataError`` (65) otherwise.
  public var exitStatus: ExitStatus {
    switch self {
    case .missing, .unreadable: .noInput
    case .liveUnreachable: .temporaryFailure
    case .notARecording, .damaged, .unknownApp, .cannotMakeTest: .dataError
    case .cannotFollow: .usage
    }
  }

  /// `cannot inspect <path>: <why>`, on one line.
  public var description: String {
    let text =
      switch self {
      case .missing(let path): "cannot inspect \(path): there is no such file"
      case .unreadable(let path, let reason): "cannot inspect \(path): \(reason)"
      case .notARecording(let path, let reason): "cannot inspect \(path): \(reason)"
      case .damaged(let path, let line, let reason):
        "cannot inspect \(path): line \(line) is damaged: \(reason)"
      case .unknownApp(let path, let app):
        "cannot inspect \(path): it is a recording of \(app), and the inspector reads rpg, "
          + "movies and todo recordings"
      case .liveUnreachable(let url, let reason):
        "cannot inspect \(url) live: \(reason)"
      case .cannotFollow(let path, let app):
        "cannot follow \(path): it is a \(app) session recording, which opens without --follow; "
          + "follow a running \(app) with its --inspect and --live"
      case .cannotMakeTest(let path, let reason):
        "cannot make a test of \(path): \(reason)"
      }
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}
