/// Asynchronous work that can fire events back into a store: the "Reactor" pattern's `Command`.
///
/// A command gets a copy of the state when it runs and a handle to the store. It runs on the
/// thread processing the store's inputs, in order with them; start asynchronous work from
/// `execute` (or use ``AsyncCommand``, whose work the store tracks and cancels).
///
/// What `execute` fires before it returns completes the command's turn: those events and
/// commands are processed in the order fired, after what earlier commands fired and ahead of
/// inputs queued meanwhile by other threads, subscribers or reducers. So a command that reads
/// the state and fires the events it implies never lets a later command see the state without
/// them.
///
/// A command may wait for the state: if ``canExecute(state:)`` is false when it is fired, it is
/// parked and checked again after every input, until it can run or until ``expiration`` has
/// passed on the store's scheduler clock, when ``didExpire(state:core:)`` is called instead. The
/// expiry is driven by a timer, not by the next input happening to arrive.
///
/// ```swift
/// struct CreatePlayer: Command {
///   var player: Player
///
///   func execute(state: RPGState, core: Core<RPGState>) {
///     Task {
///       try await api.create(player)
///       core.fire(event: AddPlayer(player: player))
///     }
///   }
/// }
///
/// core.fire(command: CreatePlayer(player: newPlayer))
/// ```
public protocol Command<CommandState, Action>: Sendable {
  /// The state of the store the command runs against.
  associatedtype CommandState: Sendable
  /// The store's input type (`any CoreEvent` for a ``Core``).
  associatedtype Action: Sendable

  /// Whether the command can run in `state`. Default: always.
  func canExecute(state: CommandState) -> Bool

  /// How long a command that cannot run yet waits before it expires. Default: 10 seconds.
  var expiration: Duration { get }

  /// Runs the command with a copy of the state and a handle to the store.
  func execute(state: CommandState, core: Store<CommandState, Action>)

  /// Called instead of ``execute(state:core:)`` when the command expired while waiting.
  /// Default: nothing.
  func didExpire(state: CommandState, core: Store<CommandState, Action>)
}

extension Command {
  /// Always `true`.
  public func canExecute(state: CommandState) -> Bool { true }

  /// 10 seconds.
  public var expiration: Duration { .seconds(10) }

  /// Does nothing.
  public func didExpire(state: CommandState, core: Store<CommandState, Action>) {}
}

/// A command whose work is `async`: the store runs it in a task it tracks, cancels it when the
/// store shuts down or is released, and reports a thrown error (other than cancellation).
///
/// ```swift
/// struct SaveGame: AsyncCommand {
///   func execute(state: RPGState, core: Core<RPGState>) async throws {
///     try await storage.save(state)
///     core.send(GameSaved())
///   }
/// }
/// ```
public protocol AsyncCommand<CommandState, Action>: Sendable {
  /// The state of the store the command runs against.
  associatedtype CommandState: Sendable
  /// The store's input type.
  associatedtype Action: Sendable

  /// Whether the command can run in `state`. Default: always.
  func canExecute(state: CommandState) -> Bool

  /// How long a command that cannot run yet waits before it expires. Default: 10 seconds.
  var expiration: Duration { get }

  /// Does the command's work with a copy of the state and a handle to the store.
  func execute(state: CommandState, core: Store<CommandState, Action>) async throws

  /// Called instead of ``execute(state:core:)`` when the command expired while waiting.
  func didExpire(state: CommandState, core: Store<CommandState, Action>)
}

extension AsyncCommand {
  /// Always `true`.
  public func canExecute(state: CommandState) -> Bool { true }

  /// 10 seconds.
  public var expiration: Duration { .seconds(10) }

  /// Does nothing.
  public func didExpire(state: CommandState, core: Store<CommandState, Action>) {}
}
