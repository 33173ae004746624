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
  /// Whether the command starts as soon as the store reaches it: `store.run { … }` without an
  /// id (``canExecute`` always `true`, nothing to cancel first), so the engine need not ask.
  @usableFromInline var startsAtOnce = false
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

/// An asynchronous command started by the engine: its ``EffectOrigin`` (the registry's entry,
/// and the mark on what it sends) and what its task runs, in one object, the only thing the
/// task's closure captures.
@usableFromInline
final class CommandTask<State: Sendable, Action: Sendable>: EffectOrigin, @unchecked Sendable {
  // Safety: it adds only immutable properties of `Sendable` types to `EffectOrigin` (see its
  // own note, and the TSan suites it names).
  @usableFromInline let engine: StoreEngine<State, Action>
  @usableFromInline let name: String
  @usableFromInline let state: State
  @usableFromInline let body: @Sendable (State, Store<State, Action>) async throws -> Void

  @inlinable
  init(
    id: Int,
    slot: Int,
    engine: StoreEngine<State, Action>,
    name: String,
    state: State,
    body: @escaping @Sendable (State, Store<State, Action>) async throws -> Void
  ) {
    self.engine = engine
    self.name = name
    self.state = state
    self.body = body
    super.init(id: id, slot: slot)
  }

  /// The command's name, which a late input sent through its handle is reported with.
  @usableFromInline override var effectName: String? { name }

  /// The task's work: the command's body with a handle whose inputs it tags, a failure other
  /// than cancellation reported, and the effect ended, however it ended.
  ///
  /// No task-local value is bound for the body: a late input names its command through the
  /// handle's origin (``EffectOrigin/effectName``), also when it was sent from another task or
  /// after the command ended. Binding one cost each command about 300 instructions in the
  /// concurrency runtime (its check for a task group, under the task's status lock, and the
  /// push and pop): 2.4 % of W4's round trip (callgrind).
  @inlinable
  func run() async {
    do {
      try await body(state, Store(engine: engine, origin: self))
    } catch is CancellationError {
      // Cancellation is not failure.
    } catch {
      if !Task.isCancelled { engine.diagnostics(.effectFailed(effect: name, error: error)) }
    }
    engine.endEffect(self)
  }
}

/// A command waiting for the state to allow it.
@usableFromInline
struct ParkedCommand<State: Sendable, Action: Sendable>: Sendable {
  let command: CommandBox<State, Action>
  let deadline: SchedulerInstant
}

/// The id of a cancellable command.
///
/// The id is kept in an object: held inline, its existential would make this type, and so every
/// ``EngineWork`` item and the queue that holds them, address-only — each copy of a work item,
/// even an action's, a call through the enum's generic value witnesses (about 1,000
/// instructions of W4's round trip, callgrind). With the box, a work item copies with a retain.
/// It costs one allocation per id a command, a cancellation or an effect is given, none for the
/// effects without one. Two ids are equal, and hash, as their `AnyHashable`s do.
@usableFromInline
struct CommandID: Hashable, Sendable {
  /// The id as given.
  @usableFromInline
  final class Box: Sendable {
    @usableFromInline let base: any Hashable & Sendable

    @inlinable
    init(_ base: any Hashable & Sendable) { self.base = base }
  }

  @usableFromInline let box: Box

  @inlinable
  init(_ value: some Hashable & Sendable) {
    box = Box(value)
  }

  @inlinable
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box === rhs.box || AnyHashable(lhs.box.base) == AnyHashable(rhs.box.base)
  }

  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(AnyHashable(box.base))
  }
}
