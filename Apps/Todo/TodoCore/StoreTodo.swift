public import AppSupport
public import CascadeStore
import CascadeStreams

/// The task list on a `Store`: the shared reducer over intents and finished writes, and a
/// `Command` that writes each change.
///
/// After each intent the service fires a ``StartWrites`` command; it runs in order with the
/// inputs, with the state they produced, and runs each write that state issued as a store
/// effect (`run`), which the store tracks, waits for in `finish()` and cancels on shutdown. A
/// finished write comes back as an input.
public final class StoreTodo: ContainerService {
  /// The intents the service takes.
  public typealias Intent = TodoIntent
  /// The service's state.
  public typealias State = TodoState

  let store: Store<TodoState, TodoEvent>
  private let writes: any TodoWrites
  private let started = LockedValue(0)

  /// Creates the service on `database`, with the state it holds now.
  public convenience init(database: TodoDatabase) {
    self.init(writes: database, initialState: TodoState(loadingFrom: database))
  }

  /// Creates the service writing to `writes`, starting from `initialState`, with `middlewares`
  /// on its store (a session recorder).
  init(
    writes: any TodoWrites,
    initialState: TodoState,
    middlewares: [any Middleware<TodoEvent, TodoState>] = []
  ) {
    self.writes = writes
    store = Store(initialState: initialState, middlewares: middlewares) { state, event in
      state.reduce(event)
    }
  }

  /// The store.
  public var container: Store<TodoState, TodoEvent> { store }

  /// The state now: `ContainerService`'s, declared here too for code that imports TodoCore and
  /// not AppSupport, where that protocol's members are not visible.
  public var currentState: TodoState { store.state }

  /// Sends an intent; its write, if any, starts through a command.
  public func send(_ intent: TodoIntent) {
    store.send(.intent(intent))
    store.fire(command: StartWrites(storage: writes, started: started))
  }
}

/// Enqueues the writes the state has issued since the last time, in order.
struct StartWrites: Command {
  let storage: any TodoWrites
  /// The id of the last write enqueued.
  let started: LockedValue<Int>

  func execute(state: TodoState, core: Store<TodoState, TodoEvent>) {
    let writes = started.withLock { started in
      defer { started = state.writesIssued }
      return state.pendingWrites.filter { $0.id > started }
    }
    for write in writes {
      // Each write's task reaches the database queue before its first suspension, and the
      // store begins effects in the order they were started: writes keep their order.
      core.run("write \(write.id)") { _, core in
        core.send(.written(await storage.performing(write)))
      }
    }
  }
}

extension TodoState {
  /// The state of `database` now, or its read error.
  init(loadingFrom database: TodoDatabase) {
    do {
      self.init(snapshot: try database.load())
    } catch {
      self.init(loadError: error)
    }
  }
}
