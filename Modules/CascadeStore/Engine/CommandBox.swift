import CascadeStreams

/// A fired command, type-erased: a ``Command`` or an ``AsyncCommand``.
@usableFromInline
struct CommandBox<State: Sendable, Action: Sendable>: Sendable {
  /// What the command does.
  ///
  /// Only an asynchronous command has a name (its task's, in diagnostics and probes): describing a command value is reflection, which costs thousands of
  /// instructions and allocates (W5's feedback loop, a synchronous command, described its
  /// feedbacks for a name nothing read).
  @usableFromInline
  enum Work: Sendable {
    case sync(@Sendable (State, Store<State, Action>) -> Void)
    case async(name: String, @Sendable (State, Store<State, Action>) async throws -> Void)
  }

  /// The id that `cancel(id:)` cancels the command by, if any.
  @usableFromInline var id: CommandID?
  /// Whether running this command first cancels the commands in flight with the same id.
  @usableFromInline var cancelInFlight = false
  @usableFromInline let canExecute: @Sendable (State) -> Bool
  @usableFromInline let expiration: Duration
  @usableFromInline let work: Work
  @usableFromInline let didExpire: @Sendable (State, Store<State, Action>) -> Void

  @inlinable
  init<C: Command>(_ command: C) where C.CommandState == State, C.Action == Action {
    canExecute = command.canExecute(state:)
    expiration = command.expiration
    work = .sync(command.execute(state:core:))
    didExpire = command.didExpire(state:core:)
  }

  init<C: AsyncCommand>(_ command: C) where C.CommandState == State, C.Action == Action {
    canExecute = command.canExecute(state:)
    expiration = command.expiration
    work = .async(name: String(describing: command), command.execute(state:core:))
    didExpire = command.didExpire(state:core:)
  }

  @inlinable
  init(
    name: String,
    operation: @escaping @Sendable (State, Store<State, Action>) async throws -> Void
  ) {
    canExecute = { _ in true }
    expiration = .seconds(10)
    work = .async(name: name, operation)
    didExpire = { _, _ in }
  }
}

/// A command waiting for the state to allow it.
@usableFromInline
struct ParkedCommand<State: Sendable, Action: Sendable>: Sendable {
  let command: CommandBox<State, Action>
  let deadline: SchedulerInstant
}

/// The name of the command whose task is running, so a late send can say where it came from.
@usableFromInline
enum CommandOrigin {
  @TaskLocal static var name: String?

  /// Runs `body` with `name` as the command's name (``name``).
  @usableFromInline
  static func run(
    named name: String,
    _ body: () async throws -> Void
  ) async throws {
    try await $name.withValue(name, operation: body)
  }
}

/// The id of a cancellable command.
@usableFromInline
struct CommandID: Hashable, @unchecked Sendable {
  // Safety: only built from `Sendable` values (see `init`), which AnyHashable wraps unchanged.
  @usableFromInline let base: AnyHashable

  @inlinable
  init(_ value: some Hashable & Sendable) {
    base = AnyHashable(value)
  }
}
