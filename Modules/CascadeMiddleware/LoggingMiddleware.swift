public import CascadeStore
import CascadeStreams
public import Logging

/// A middleware that writes one compact line per input to a swift-log `Logger`.
///
/// Each processed input becomes one line at ``level``:
///
/// ```
/// #<sequence> <time> <input> [<mutation>] → <state>
/// ```
///
/// - `sequence` is `MiddlewareRecord.sequence`; `time` is `MiddlewareRecord.time` written in
///   seconds with millisecond precision (`1.500s`).
/// - `[<mutation>]` appears when the architecture has mutations (a reactor) and
///   `MiddlewareRecord.mutation` is present.
/// - `→ <state>` appears when ``stateLogging`` is not ``StateLogging/none`` and the logger also
///   admits ``stateLevel``: with the defaults (inputs at `.info`, state at `.debug`) a logger at
///   `.info` shows inputs only and a logger at `.debug` shows inputs with their state.
///
/// The sequence and the time are also attached as metadata (`sequence`, `time`), so structured
/// log backends can index them.
///
/// ```
/// #1 0.000s login(user: "ada", password: "<redacted>") → signedIn
/// #2 0.250s refresh [setLoading(true)] → loading
/// ```
///
/// Sensitive fields never reach the log if the redaction hooks leave them out: ``redact`` turns
/// an input into the text logged (and ``redactState``, ``redactMutation`` do the same for the
/// state and the mutation). The defaults use `String(describing:)`.
///
/// ```swift
/// let logging = LoggingMiddleware<Action, State>(
///   logger: Logger(label: "app.store"),
///   state: .summary { "\($0.items.count) items" },
///   redact: { action in
///     if case .login(let user, _) = action { return "login(user: \(user), password: ***)" }
///     return String(describing: action)
///   }
/// )
/// ```
///
/// Disabled logging costs nothing: the middleware reads the logger's `logLevel` first and calls
/// no hook and formats nothing unless the line will be written.
public struct LoggingMiddleware<Input: Sendable, State: Sendable>: Middleware {
  /// How much of the state follows each input.
  public enum StateLogging: Sendable {
    /// No state.
    case none
    /// The text `summary` makes of the state; it decides what is shown, so it is its own
    /// redaction.
    case summary(@Sendable (State) -> String)
    /// The whole state, through ``LoggingMiddleware/redactState``.
    case full
  }

  /// The logger written to.
  public var logger: Logger
  /// The level of each input's line.
  public var level: Logger.Level
  /// Whether, and how, the state follows each input.
  public var stateLogging: StateLogging
  /// The level the logger must admit for the state to be shown.
  public var stateLevel: Logger.Level
  /// Turns an input into the text logged; leave sensitive fields out here.
  public var redact: @Sendable (Input) -> String
  /// Turns the state into the text logged with ``StateLogging/full``.
  public var redactState: @Sendable (State) -> String
  /// Turns a reactor's mutation into the text logged.
  public var redactMutation: @Sendable (any Sendable) -> String

  /// Creates a logging middleware.
  ///
  /// - Parameters:
  ///   - logger: The logger written to; by default one labelled `cascade`.
  ///   - level: The level of each input's line.
  ///   - state: Whether, and how, the state follows each input.
  ///   - stateLevel: The level the logger must admit for the state to be shown.
  ///   - redact: Turns an input into the text logged.
  ///   - redactState: Turns the state into the text logged with ``StateLogging/full``.
  ///   - redactMutation: Turns a reactor's mutation into the text logged.
  public init(
    logger: Logger = Logger(label: "cascade"),
    level: Logger.Level = .info,
    state: StateLogging = .none,
    stateLevel: Logger.Level = .debug,
    redact: @escaping @Sendable (Input) -> String = { String(describing: $0) },
    redactState: @escaping @Sendable (State) -> String = { String(describing: $0) },
    redactMutation: @escaping @Sendable (any Sendable) -> String = { String(describing: $0) }
  ) {
    self.logger = logger
    self.level = level
    self.stateLogging = state
    self.stateLevel = stateLevel
    self.redact = redact
    self.redactState = redactState
    self.redactMutation = redactMutation
  }

  /// `false`: logging only observes.
  public var interceptsInputs: Bool { false }

  /// Writes the record's line, if the logger admits ``level``.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    let threshold = logger.logLevel
    guard threshold <= level else { return }
    let time = Self.format(record.time.offset)
    var line = "#\(record.sequence) \(time) \(redact(record.input))"
    if let mutation = record.mutation {
      line += " [\(redactMutation(mutation))]"
    }
    if threshold <= stateLevel {
      switch stateLogging {
      case .none: break
      case .summary(let summary): line += " → \(summary(record.state))"
      case .full: line += " → \(redactState(record.state))"
      }
    }
    logger.log(
      level: level,
      "\(line)",
      metadata: ["sequence": .stringConvertible(record.sequence), "time": .string(time)]
    )
  }

  /// `duration` in seconds with millisecond precision: `1.500s`, `-0.250s`.
  static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let negative = seconds < 0 || attoseconds < 0
    let milliseconds = abs(attoseconds) / 1_000_000_000_000_000
    let fraction = String(milliseconds)
    let padding = String(repeating: "0", count: 3 - fraction.count)
    return "\(negative ? "-" : "")\(abs(seconds)).\(padding)\(fraction)s"
  }
}
