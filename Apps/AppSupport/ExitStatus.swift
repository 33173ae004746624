/// How a sample app's command line ends: the BSD `sysexits` codes users and scripts know, used
/// the same way by `rpg`, `movies` and `todo` (and listed in each `--help` and the README).
public enum ExitStatus: Int32, Sendable, CaseIterable, CustomStringConvertible {
  /// Everything asked for was done.
  case ok = 0
  /// A command failed (a rule of the app refused it, a request failed for good).
  case failure = 1
  /// The command line was wrong (`EX_USAGE`).
  case usage = 64
  /// The input data was wrong: a damaged database or recording, a malformed server reply, text
  /// that is not UTF-8 (`EX_DATAERR`).
  case dataError = 65
  /// An input file does not exist or cannot be read (`EX_NOINPUT`).
  case noInput = 66
  /// Reading or writing failed: a closed output pipe, a full disk (`EX_IOERR`).
  case ioError = 74
  /// A temporary failure worth retrying later: the server is unavailable, the database is
  /// locked (`EX_TEMPFAIL`).
  case temporaryFailure = 75

  /// The code, right-aligned, and what it means, as `--help` lists them:
  /// ` 64  usage: the command line was wrong`.
  public var description: String {
    let meaning =
      switch self {
      case .ok: "ok"
      case .failure: "failure: a command failed"
      case .usage: "usage: the command line was wrong"
      case .dataError: "bad data: a damaged file, a malformed reply, text that is not UTF-8"
      case .noInput: "missing input: a file does not exist or cannot be read"
      case .ioError: "I/O error: output or a file could not be written"
      case .temporaryFailure: "temporary failure: try again later"
      }
    let code = String(rawValue)
    return String(repeating: " ", count: max(0, 3 - code.count)) + code + "  " + meaning
  }

  /// The exit codes, one per line, for a command's `--help`.
  public static var helpText: String {
    "Exit codes:\n" + allCases.map { "  \($0)" }.joined(separator: "\n")
  }
}
