public import AppSupport
import CascadeMiddleware
public import CascadeStore

/// The game on a `CascadeStore.Core`, in the seed's style: a ``GameState`` that reacts to
/// events, a ``CreatePlayer`` command, turns as commands that fire events, file work as effects
/// the store runs and tracks (`core.run`), and the seed's middleware (``LevelUpAnnouncer``)
/// announcing each ``LevelUp``.
public final class StoreGame: ContainerService {
  /// The store.
  let core: Core<GameState>
  /// The save file.
  let file: GameFile

  /// Creates the game, with an empty state unless another is given.
  ///
  /// - Parameters:
  ///   - file: The save file.
  ///   - log: Where the ``LevelUpAnnouncer`` prints ("Leveled Up!").
  ///   - initialState: The state the game starts from (a live inspector's replay starts from a
  ///     state it kept).
  ///   - middlewares: More middlewares, after the seed's (a session recorder, last).
  public init(
    file: GameFile,
    log: @escaping @Sendable (String) -> Void = { print($0) },
    initialState: GameState = GameState(),
    middlewares: [any Middleware<any CoreEvent, GameState>] = []
  ) {
    self.file = file
    core = Core(
      initialState: initialState,
      middlewares: [LevelUpAnnouncer<any CoreEvent, GameState>(print: log)] + middlewares
    )
  }

  /// The store.
  public var container: Core<GameState> { core }

  /// Fires the command that carries out `intent`.
  public func send(_ intent: GameIntent) {
    switch intent {
    case .newGame(let name, let seed):
      core.fire(command: CreatePlayer(name: name, seed: seed))
    default:
      core.fire(command: PlayIntent(intent: intent, file: file))
    }
  }
}

// MARK: - Events

/// The player reached a new level: the seed's `LevelUp`.
public struct LevelUp: CoreEvent {
  /// The level reached.
  public var level: Int
}

/// A new player joined: the seed's `AddPlayer`, fired by ``CreatePlayer``.
struct AddPlayer: CoreEvent {
  var game: Game
}

/// Any other change to the game state.
struct Changed: CoreEvent {
  var change: GameChange
}

extension GameState: CoreState {
  /// Reacts to the store's events by applying the change each one stands for.
  public mutating func react(to event: any CoreEvent) {
    switch event {
    case let levelUp as LevelUp:
      apply(.happened(.leveledUp(level: levelUp.level)))
    case let added as AddPlayer:
      apply(.happened(.gameStarted(added.game)))
    case let changed as Changed:
      apply(changed.change)
    default:
      break
    }
  }
}

/// The store's events as values that can be recorded: the store's inputs are `any CoreEvent`, which
/// is not `Codable`, so a session recorder records each event as one of these cases and a
/// replay makes the event again.
public enum StoreGameEvent: Sendable, Equatable, Codable {
  /// A ``LevelUp``.
  case levelUp(level: Int)
  /// The player of a new game joined (the seed's `AddPlayer`).
  case addPlayer(Game)
  /// Any other change to the game state.
  case changed(GameChange)

  /// The recordable form of `event`, or `nil` for an event the game does not fire.
  public init?(_ event: any CoreEvent) {
    switch event {
    case let levelUp as LevelUp: self = .levelUp(level: levelUp.level)
    case let added as AddPlayer: self = .addPlayer(added.game)
    case let changed as Changed: self = .changed(changed.change)
    default: return nil
    }
  }

  /// The store's event.
  public var event: any CoreEvent {
    switch self {
    case .levelUp(let level): LevelUp(level: level)
    case .addPlayer(let game): AddPlayer(game: game)
    case .changed(let change): Changed(change: change)
    }
  }
}

/// The store event for `change`: ``LevelUp`` for a level-up, as in the seed.
private func event(for change: GameChange) -> any CoreEvent {
  if case .happened(.leveledUp(let level)) = change { return LevelUp(level: level) }
  return Changed(change: change)
}

// MARK: - Commands

/// Creates the player of a new game: the seed's `CreatePlayer`, which fires `AddPlayer`.
struct CreatePlayer: Command {
  var name: String
  var seed: UInt64

  func execute(state: GameState, core: Core<GameState>) {
    for change in Rules.changes(for: .newGame(name: name, seed: seed), in: state) {
      if case .happened(.gameStarted(let game)) = change {
        core.fire(event: AddPlayer(game: game))
      } else {
        core.fire(event: Changed(change: change))
      }
    }
  }
}

/// Plays a turn, or starts a save or load, against the state at its turn in the queue.
struct PlayIntent: Command {
  var intent: GameIntent
  var file: GameFile

  func execute(state: GameState, core: Core<GameState>) {
    for change in Rules.changes(for: intent, in: state) {
      core.fire(event: event(for: change))
      if let work = GameFileWork(startedBy: change, in: state, on: file) {
        core.run(work.name) { _, core in core.fire(event: Changed(change: await work.run())) }
      }
    }
  }
}
