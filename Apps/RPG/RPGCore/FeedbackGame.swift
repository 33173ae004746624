public import AppSupport
import CascadeFeedback
import CascadeStore
public import CascadeStreams

/// The game on a `CascadeFeedback.FeedbackLoop`: the player's intents are events, the reducer
/// resolves each against the state into the ``GameChange``s it leads to, one feedback applies
/// those changes one at a time, and another does the file work while the state asks for a save
/// or a load; the seed's ``LoggingMiddleware`` announces each level-up as it is applied.
public final class FeedbackGame: AppService {
  /// The loop.
  let loop: FeedbackLoop<FeedbackGameMachine, FeedbackGameEvent>
  /// The game states, without the loop's bookkeeping.
  public let states: Observable<GameState, Never>

  /// Creates the game with an empty state, saving to `file`.
  ///
  /// - Parameters:
  ///   - file: The save file.
  ///   - log: Where the seed's ``LoggingMiddleware`` prints ("Leveled Up!").
  public convenience init(file: GameFile, log: @escaping @Sendable (String) -> Void = { print($0) })
  {
    self.init(file: file, log: log, middlewares: [])
  }

  /// Creates the game with an empty state, saving to `file`, with the seed's
  /// ``LoggingMiddleware`` printing to `log`, then `middlewares` on its loop (a session
  /// recorder).
  init(
    file: GameFile,
    log: @escaping @Sendable (String) -> Void,
    middlewares: [any Middleware<FeedbackGameEvent, FeedbackGameMachine>]
  ) {
    let logging = LoggingMiddleware<FeedbackGameEvent, FeedbackGameMachine>(print: log)
    loop = FeedbackLoop(
      initial: FeedbackGameMachine(),
      reduceInPlace: { machine, event in machine.reduce(event) },
      feedbacks: [Self.applyChanges, Self.files(file)],
      scheduler: ImmediateScheduler(),
      middlewares: [logging] + middlewares
    )
    states = loop.states.map(\.game).distinctUntilChanged().asObservable()
  }

  /// ``Architecture/feedback``.
  public var architecture: Architecture { .feedback }

  /// The state now.
  public var currentState: GameState { loop.currentState.game }

  /// Sends `intent` to the loop as an event.
  public func send(_ intent: GameIntent) {
    loop.send(.intent(intent))
  }

  /// Waits until every intent sent so far and the work it started are done.
  public func finish() async {
    await loop.finish()
  }

  /// While changes are pending, applies the next one: each change makes its own state, as in
  /// the other architectures.
  static let applyChanges = Feedback<FeedbackGameMachine, FeedbackGameEvent> { machines in
    machines.filter { !$0.pending.isEmpty }.map { _ in FeedbackGameEvent.applyNext }
      .asObservable()
  }

  /// While the state asks for a save or a load, does it and reports the outcome.
  static func files(_ file: GameFile) -> Feedback<FeedbackGameMachine, FeedbackGameEvent> {
    Feedback(predicate: { $0.game.isBusy }) { machine, send in
      switch machine.game.activity {
      case .saving(let overwrite):
        guard let game = machine.game.game else { return }
        do throws(SaveError) {
          try await file.save(game, overwrite: overwrite)
          send(.finished(.saved(step: game.step)))
        } catch {
          send(.finished(.saveFailed(error)))
        }
      case .loading:
        do throws(SaveError) {
          send(.finished(.loaded(try await file.load())))
        } catch {
          send(.finished(.loadFailed(error)))
        }
      case nil:
        break
      }
    }
  }
}

/// The state of the game's feedback loop: the game state, and the changes resolved but not yet
/// applied.
struct FeedbackGameMachine: Sendable, Encodable {
  var game = GameState()
  var pending: [GameChange] = []

  mutating func reduce(_ event: FeedbackGameEvent) {
    switch event {
    case .intent(let intent):
      // Resolve against the state as the pending changes will leave it.
      var projected = game
      for change in pending { projected.apply(change) }
      pending += Rules.changes(for: intent, in: projected)
    case .applyNext:
      if !pending.isEmpty { game.apply(pending.removeFirst()) }
    case .finished(let change):
      game.apply(change)
    }
  }
}

/// The events of the game's feedback loop.
enum FeedbackGameEvent: Sendable, Codable {
  /// The player asked for something.
  case intent(GameIntent)
  /// Apply the next pending change.
  case applyNext
  /// A save or load finished.
  case finished(GameChange)
}
