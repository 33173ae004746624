public import CascadeMiddleware
public import CascadeStore
import Logging

/// The seed's middleware: CascadeMiddleware's `LoggingMiddleware`, configured to announce every
/// level-up with "Leveled Up!" and nothing else, on every architecture.
///
/// The middleware writes one line per input to a logger. Each architecture's configuration
/// (``levelUps(print:)``) redacts every input to nothing, except the one that applied a level-up
/// — the store's ``LevelUp`` event, the reactor's `GameChange.happened(.leveledUp)` mutation,
/// the feedback loop's event that applied a pending level-up — which it writes as
/// ``LevelUpAnnouncement/text``; the logger's handler prints that text for each line that
/// carries it. So a game prints one announcement per level gained whatever it runs on, just
/// before the state that shows the new level reaches the subscribers (a middleware runs before
/// they are notified, on all three).
///
/// ```swift
/// let logging = LoggingMiddleware<any Event, GameState>.levelUps(print: { print($0) })
/// let core = Core(state: GameState(), middlewares: [logging])
/// ```
public enum LevelUpAnnouncement {
  /// The announcement.
  public static let text = "Leveled Up!"

  /// A logger whose lines are printed with `print` as the announcement, when they carry it.
  static func logger(print: @escaping @Sendable (String) -> Void) -> Logger {
    Logger(label: "rpg.level-up") { _ in Printer(print: print) }
  }

  /// The logger's handler: it prints ``text`` for each line that carries it, and nothing else.
  private struct Printer: LogHandler {
    let print: @Sendable (String) -> Void
    var logLevel = Logger.Level.info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      if event.message.description.contains(text) { print(text) }
    }
  }

  /// `text` when `isLevelUp`, and nothing otherwise: what a line of the logging middleware says.
  static func line(_ isLevelUp: Bool) -> String { isLevelUp ? text : "" }
}

extension LoggingMiddleware where Input == any Event, State == GameState {
  /// The seed's middleware on the store: a ``LevelUp`` event is the level-up.
  public static func levelUps(print: @escaping @Sendable (String) -> Void) -> Self {
    Self(
      logger: LevelUpAnnouncement.logger(print: print),
      redact: { LevelUpAnnouncement.line($0 is LevelUp) }
    )
  }
}

extension LoggingMiddleware where Input == GameIntent, State == GameState {
  /// The seed's middleware on the reactor: the mutation `GameChange.happened(.leveledUp)` is the
  /// level-up (the reactor shows a middleware each mutation with the action that caused it).
  public static func levelUps(print: @escaping @Sendable (String) -> Void) -> Self {
    Self(
      logger: LevelUpAnnouncement.logger(print: print),
      redact: { _ in "" },
      redactMutation: { LevelUpAnnouncement.line(($0 as? GameChange)?.isLevelUp == true) }
    )
  }
}

extension LoggingMiddleware where Input == FeedbackGameEvent, State == FeedbackGameMachine {
  /// The seed's middleware on the feedback loop: the event that applied a pending level-up (the
  /// machine's ``FeedbackGameMachine/applied`` change after it).
  static func levelUps(print: @escaping @Sendable (String) -> Void) -> Self {
    Self(
      logger: LevelUpAnnouncement.logger(print: print),
      state: .summary { LevelUpAnnouncement.line($0.applied?.isLevelUp == true) },
      stateLevel: .info,
      redact: { _ in "" }
    )
  }
}

extension GameChange {
  /// Whether the change is a level-up.
  var isLevelUp: Bool {
    if case .happened(.leveledUp) = self { true } else { false }
  }

  /// Whether the change is an effect's outcome: a save or a load that finished.
  var isEffectOutcome: Bool {
    switch self {
    case .saved, .saveFailed, .loaded, .loadFailed: true
    default: false
    }
  }
}
