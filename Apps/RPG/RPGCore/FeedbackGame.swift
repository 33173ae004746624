public import AppSupport
public import CascadeFeedback
import CascadeStore
public import CascadeStreams

/// The game on a `CascadeFeedback.FeedbackLoop`: the player's intents are events, the reducer
/// resolves each against the state into the ``GameChange``s it leads to, one feedback applies
/// those changes one at a time, and another does the file work while the state asks for a save
/// or a load; the seed's middleware (``LevelUpAnnouncer``) announces each level-up as it is
/// applied.
public final class FeedbackGame: ContainerService {
  /// The intents the service takes.
  public typealias Intent = GameIntent
  /// The service's state.
  public typealias State = GameState

  /// The loop.
  let loop: FeedbackLoop<FeedbackGameMachine, FeedbackGameEvent>
  /// The loop: its state is the game's with the changes not yet applied, so the service maps
  /// its states.
  public var container: FeedbackLoop<FeedbackGameMachine, FeedbackGameEvent> { loop }
  /// The game states, without the loop's bookkeeping.
  public let states: Observable<GameState, Never>

  /// Creates the game with an empty state, saving to `file`.
  ///
  /// - Parameters:
  ///   - file: The save file.
  ///   - log: Where the ``LevelUpAnnouncer`` prints ("Leveled Up!").
  public convenience init(file: GameFile, log: @escaping @Sendable (String) -> Void = { print($0) })
  {
    self.init(file: file, log: log, middlewares: [])
  }

  /// Creates the game from `initialState` (an empty one unless another is given: a live
  /// inspector's replay starts from a state it kept), saving to `file`, with the seed's
  /// ``LevelUpAnnouncer`` printing to `log`, then `middlewares` on its loop (a session
  /// recorder); `reacting` `false`: without its feedbacks, for a replay from a state (no
  /// feedback runs in a replay, and a loop started from a state mid-way would react to it
  /// before).
  init(
    file: GameFile,
    log: @escaping @Sendable (String) -> Void,
    initialState: FeedbackGameMachine = FeedbackGameMachine(),
    reacting: Bool = true,
    middlewares: [any Middleware<FeedbackGameEvent, FeedbackGameMachine>]
  ) {
    let announcer = LevelUpAnnouncer<FeedbackGameEvent, FeedbackGameMachine>(print: log)
    loop = FeedbackLoop(
      initialState: initialState,
      reduceInPlace: { machine, event in machine.reduce(event) },
      feedbacks: reacting ? [Self.applyChanges, Self.files(file)] : [],
      scheduler: ImmediateScheduler(),
      middlewares: [announcer] + middlewares
    )
    states = loop.states.map(\.game).distinctUntilChanged().asObservable()
  }

  /// The state now.
  public var currentState: GameState { loop.currentState.game }

  /// While changes are pending, applies the next one: each change makes its own state, as in
  /// the other architectures.
  static let applyChanges = Feedback<FeedbackGameMachine, FeedbackGameEvent> { machines in
    machines.filter { !$0.pending.isEmpty }.map { _ in FeedbackGameEvent.applyNext }
      .asObservable()
  }

  /// While the state asks for a save or a load, does it and reports the outcome.
  static func files(_ file: GameFile) -> Feedback<FeedbackGameMachine, FeedbackGameEvent> {
    Feedback(predicate: { $0.game.isBusy }) { machine, send in
      let game = machine.game
      guard let work = GameFileWork(game.activity, of: game.game, on: file) else { return }
      send(.finished(await work.run()))
    }
  }
}

/// The state of the game's feedback loop: the game state, and the changes resolved but not yet
/// applied.
public struct FeedbackGameMachine: Sendable, Equatable, Codable {
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
public enum FeedbackGameEvent: Sendable, Equatable, Codable, IntentInput {
  /// The player asked for something.
  case intent(GameIntent)
  /// Apply the next pending change.
  case applyNext
  /// A save or load finished.
  case finished(GameChange)
}
