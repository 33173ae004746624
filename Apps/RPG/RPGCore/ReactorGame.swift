public import AppSupport
public import CascadeReactor
public import CascadeStore
public import CascadeStreams

/// The game on a `CascadeReactor.Reactor`: intents are actions, ``GameChange``s are mutations,
/// saving and loading are asynchronous mutations, and the seed's middleware
/// (``LevelUpAnnouncer``) announces each level-up mutation.
public final class ReactorGame: Reactor, ArchitectureContainer, ArchitectureService {
  /// The reactor's actions: what the player asks for.
  public typealias Action = GameIntent
  /// The reactor's mutations: the changes every architecture applies.
  public typealias Mutation = GameChange

  /// The state the game starts from: an empty one unless another was given.
  public let initialState: GameState
  /// The reactor's machinery.
  public let runtime = ReactorRuntime<GameIntent, GameChange, GameState>()
  /// The save file.
  let file: GameFile
  /// The middlewares: the seed's ``LevelUpAnnouncer``, then those given (a session recorder).
  public let middlewares: [any Middleware<GameIntent, GameState>]

  /// Creates the game with an empty state, saving to `file`.
  ///
  /// - Parameters:
  ///   - file: The save file.
  ///   - log: Where the ``LevelUpAnnouncer`` prints ("Leveled Up!").
  ///   - initialState: The state the game starts from (a live inspector's replay starts from a
  ///     state it kept).
  ///   - middlewares: More middlewares that see every action and mutation, after the seed's (a
  ///     session recorder).
  public init(
    file: GameFile,
    log: @escaping @Sendable (String) -> Void = { print($0) },
    initialState: GameState = GameState(),
    middlewares: [any Middleware<GameIntent, GameState>] = []
  ) {
    self.file = file
    self.initialState = initialState
    self.middlewares = [LevelUpAnnouncer<GameIntent, GameState>(print: log)] + middlewares
  }

  /// States are delivered synchronously, on the thread that reduced them.
  public var scheduler: any Scheduler { ImmediateScheduler() }

  /// The reactor: the game itself.
  public var container: ReactorGame { self }

  /// The states.
  public var states: Observable<GameState, Never> { state }

  /// Turns an intent into its changes, against the state at its turn: a turn's events at once,
  /// and the outcome of a save or load when the file work is done.
  public func mutate(action: GameIntent) -> Mutations<GameChange> {
    let state = currentState
    let changes = Rules.changes(for: action, in: state)
    let work = changes.compactMap { GameFileWork(startedBy: $0, in: state, on: file) }.last
    return Mutations(
      sync: changes,
      async: work.map { work in
        Mutations<GameChange>.Work.operation { send in send(await work.run()) }
      }
    )
  }

  /// Applies a change in place.
  public func reduce(into state: inout GameState, mutation: GameChange) {
    state.apply(mutation)
  }
}
