public import AppSupport
import CascadeReactor
import CascadeStore
public import CascadeStreams

/// The task list on a `Reactor`: each intent is a synchronous mutation, and its write an
/// asynchronous mutation stream that reports the finished write.
public final class ReactorTodo: AppService {
  /// The intents the service takes.
  public typealias Intent = TodoIntent
  /// The service's state.
  public typealias State = TodoState

  let reactor: TodoReactor

  /// Creates the service on `database`, with the state it holds now.
  public convenience init(database: TodoDatabase) {
    self.init(writes: database, initialState: TodoState(loadingFrom: database))
  }

  /// Creates the service writing to `writes`, starting from `initialState`, with `middlewares`
  /// on its reactor (a session recorder).
  init(
    writes: any TodoWrites,
    initialState: TodoState,
    middlewares: [any Middleware<TodoIntent, TodoState>] = []
  ) {
    reactor = TodoReactor(writes: writes, initialState: initialState, middlewares: middlewares)
  }

  /// ``Architecture/reactor``.
  public var architecture: Architecture { .reactor }

  /// The state now.
  public var currentState: TodoState { reactor.currentState }

  /// The current state, then every change.
  public var states: Observable<TodoState, Never> { reactor.state }

  /// Sends an intent as the reactor's action.
  public func send(_ intent: TodoIntent) {
    reactor.send(intent)
  }

  /// Waits until every intent sent so far and the work it started are done.
  public func finish() async {
    await reactor.finish()
  }
}

/// RxTodo's reactor: intents in, the shared reducer's events as mutations.
final class TodoReactor: Reactor {
  typealias Action = TodoIntent
  typealias Mutation = TodoEvent
  typealias State = TodoState

  let initialState: TodoState
  let runtime = ReactorRuntime<TodoIntent, TodoEvent, TodoState>()
  let middlewares: [any Middleware<TodoIntent, TodoState>]
  private let writes: any TodoWrites

  init(
    writes: any TodoWrites,
    initialState: TodoState,
    middlewares: [any Middleware<TodoIntent, TodoState>]
  ) {
    self.writes = writes
    self.initialState = initialState
    self.middlewares = middlewares
  }

  /// States are delivered on the thread that produced them, as every service does.
  var scheduler: any Scheduler { ImmediateScheduler.instance }

  func mutate(action: TodoIntent) -> Mutations<TodoEvent> {
    let event = TodoEvent.intent(action)
    guard let write = currentState.write(issuedBy: event) else { return .just(event) }
    // The stream is subscribed while the action is processed, so writes are enqueued in order.
    let writes = writes
    let written = Observable<TodoEvent, Never>.create { observer in
      writes.enqueue(write) { result in
        observer.onNext(.written(result))
        observer.onCompleted()
      }
      return Disposables.empty
    }
    return Mutations(sync: event, async: written)
  }

  func reduce(into state: inout TodoState, mutation: TodoEvent) {
    state.reduce(mutation)
  }
}
