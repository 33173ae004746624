public import CascadeStore

/// The seed's middleware: it announces every level-up with "Leveled Up!", on every architecture.
///
/// This is the seed's `LoggingMiddleware`, renamed so that it does not collide with
/// CascadeMiddleware's `LoggingMiddleware`, which logs every input.
///
/// It only watches: a middleware never changes the state. Each architecture applies a level-up
/// as one input of its own — the store's ``LevelUp`` event, the reactor's
/// `GameChange.happened(.leveledUp)` mutation, the feedback loop's event that applies a pending
/// level-up — and the middleware recognises exactly that input, so a game prints one
/// announcement per level gained whatever it runs on, and just before the state that shows the
/// new level reaches the subscribers (a middleware runs before they are notified, on all three).
///
/// ```swift
/// let announcer = LevelUpAnnouncer<any CoreEvent, GameState>(print: { print($0) })
/// let core = Core(initialState: GameState(), middlewares: [announcer])
/// ```
public struct LevelUpAnnouncer<Input: Sendable, State: Sendable>: Middleware {
  /// Where the announcement goes.
  let print: @Sendable (String) -> Void
  /// Whether the input a record shows applied a level-up.
  let leveledUp: @Sendable (MiddlewareRecord<Input, State>) -> Bool
  /// Whether ``leveledUp`` reads the state before the input.
  public let wantsStateBefore: Bool

  /// Creates the middleware for an architecture, from how its inputs show a level-up.
  init(
    print: @escaping @Sendable (String) -> Void,
    wantsStateBefore: Bool = false,
    leveledUp: @escaping @Sendable (MiddlewareRecord<Input, State>) -> Bool
  ) {
    self.print = print
    self.wantsStateBefore = wantsStateBefore
    self.leveledUp = leveledUp
  }

  /// `false`: the middleware only watches.
  public var interceptsInputs: Bool { false }

  /// The announcement.
  public static var announcement: String { "Leveled Up!" }

  /// Prints ``announcement`` when the input applied a level-up.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    if leveledUp(record) { print(Self.announcement) }
  }
}

extension LevelUpAnnouncer where Input == any CoreEvent, State == GameState {
  /// The seed's form, for the store: a ``LevelUp`` event is the level-up.
  public init(print: @escaping @Sendable (String) -> Void) {
    self.init(print: print) { record in record.input is LevelUp }
  }
}

extension LevelUpAnnouncer where Input == GameIntent, State == GameState {
  /// For the reactor: the mutation `GameChange.happened(.leveledUp)` is the level-up (the
  /// reactor shows a middleware each mutation with the action that caused it).
  public init(print: @escaping @Sendable (String) -> Void) {
    self.init(print: print) { record in
      record.mutation(as: GameChange.self)?.isLevelUp == true
    }
  }
}

extension LevelUpAnnouncer where Input == FeedbackGameEvent, State == FeedbackGameMachine {
  /// For the feedback loop: an `applyNext` event whose pending change (in the state before it)
  /// is a level-up.
  init(print: @escaping @Sendable (String) -> Void) {
    self.init(print: print, wantsStateBefore: true) { record in
      guard case .applyNext = record.input else { return false }
      return record.stateBefore?.pending.first?.isLevelUp == true
    }
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
