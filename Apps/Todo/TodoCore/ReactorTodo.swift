public import AppSupport
public import CascadeReactor
public import CascadeStore
public import CascadeStreams

/// The task list on a `Reactor`: each intent is a synchronous mutation, and its write an
/// asynchronous mutation stream that reports the finished write.
public final class ReactorTodo: ContainerService {
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

  /// The reactor.
  public var container: TodoReactor { reactor }
}

/// RxTodo's reactor: intents in, the shared reducer's events as mutations.
public final class TodoReactor: Reactor, ArchitectureContainer {
  /// What the user asked for.
  public typealias Action = TodoIntent
  /// The shared reducer's events.
  public typealias Mutation = TodoEvent
  /// The task list.
  public typealias State = TodoState

  /// The state the reactor starts from.
  public let initialState: TodoState
  /// The reactor's machinery.
  public let runtime = ReactorRuntime<TodoIntent, TodoEvent, TodoState>()
  /// The middlewares: none, or a session recorder.
  public let middlewares: [any Middleware<TodoIntent, TodoState>]
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
  public var scheduler: any Scheduler { ImmediateScheduler.instance }

  /// The intent's event, and the write it issues, if any, as a stream reporting the finished
  /// write.
  public func mutate(action: TodoIntent) -> Mutations<TodoEvent> {
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

  /// Applies an event with the shared reducer.
  public func reduce(into state: inout TodoState, mutation: TodoEvent) {
    state.reduce(mutation)
  }
}
