public import CascadeFeedback
public import CascadeReactor
public import CascadeStore
public import CascadeStreams

/// A `StateContainer` that is one of the three architectures, and knows which: a `Store`, a
/// `FeedbackLoop`, or a reactor declared one (`extension MyReactor: ArchitectureContainer {}`).
///
/// What the app services and their sessions need of an architecture beyond `StateContainer`:
/// its name, and how it replays what was recorded of it.
public protocol ArchitectureContainer: StateContainer {
  /// The architecture.
  static var architecture: Architecture { get }

  /// Replays `inputs` (replay mode: the recorded states, and no effect), each with the
  /// mutation it made on a reactor (`nil` elsewhere, and for a reactor's action that made none
  /// recorded).
  func replay(_ inputs: [(input: Input, mutation: (any Sendable)?)]) async

  /// The replayer of a session recording made on this architecture into this container, whose
  /// inputs are the recorded ones made again by `decode`.
  func replayer<Schema: SessionSchema>(
    decoding decode: @escaping @Sendable (Schema.Input) -> Input
  ) -> SessionReplayer<Schema>
}

extension Store: ArchitectureContainer {
  /// ``Architecture/store``.
  public static var architecture: Architecture { .store }

  /// Replays the actions.
  public func replay(_ inputs: [(input: Action, mutation: (any Sendable)?)]) async {
    _ = await replay(inputs.map(\.input))
  }

  /// ``SessionReplayer/store(_:decode:)``.
  public func replayer<Schema: SessionSchema>(
    decoding decode: @escaping @Sendable (Schema.Input) -> Action
  ) -> SessionReplayer<Schema> {
    .store(self, decode: decode)
  }
}

extension FeedbackLoop: ArchitectureContainer {
  /// ``Architecture/feedback``.
  public static var architecture: Architecture { .feedback }

  /// Replays the events.
  public func replay(_ inputs: [(input: Event, mutation: (any Sendable)?)]) async {
    _ = await replay(inputs.map(\.input))
  }

  /// ``SessionReplayer/loop(_:decode:)``.
  public func replayer<Schema: SessionSchema>(
    decoding decode: @escaping @Sendable (Schema.Input) -> Event
  ) -> SessionReplayer<Schema> {
    .loop(self, decode: decode)
  }
}

extension ArchitectureContainer where Self: Reactor {
  /// ``Architecture/reactor``.
  public static var architecture: Architecture { .reactor }

  /// Replays each recorded mutation in its action's place, without calling
  /// `mutate(action:)`, and each action without one as an action.
  public func replay(_ inputs: [(input: Action, mutation: (any Sendable)?)]) async {
    await replay(
      inputs.map { input, mutation in
        guard let mutation = mutation as? Mutation else { return .action(input) }
        return .mutation(mutation, cause: input)
      }
    )
  }
}

extension ArchitectureContainer where Self: Reactor, Mutation: Decodable {
  /// ``SessionReplayer/reactor(_:decode:)``.
  public func replayer<Schema: SessionSchema>(
    decoding decode: @escaping @Sendable (Schema.Input) -> Action
  ) -> SessionReplayer<Schema> {
    .reactor(self, decode: decode)
  }
}

/// An input of an architecture that carries an intent of the app's (an event's `intent` case):
/// what ``ContainerService`` sends its container for an intent.
public protocol IntentInput<Intent>: Sendable {
  /// The intents carried.
  associatedtype Intent
  /// The input carrying `intent`.
  static func intent(_ intent: Intent) -> Self
}

/// An app service that exposes the architecture it is built on: its `StateContainer`.
///
/// Its ``AppService/architecture`` is the container's.
public protocol ArchitectureService<Intent, State>: AppService {
  /// The architecture's container.
  associatedtype Container: ArchitectureContainer
  /// The store, reactor or feedback loop the service is built on.
  var container: Container { get }
}

extension ArchitectureService {
  /// The container's architecture.
  public var architecture: Architecture { Container.architecture }
}

/// An app service that forwards to its container: the state, the states, sending an intent (as
/// the container's input, or as the input that carries it) and finishing are the container's,
/// so a service writes only what differs (a store's command after each intent, a loop's states
/// mapped from a machine).
///
/// ```swift
/// final class ReactorCounter: ContainerService {
///   let container = CounterReactor()  // a reactor whose actions are the intents
/// }
/// ```
public protocol ContainerService<Intent, State>: ArchitectureService {}

extension ContainerService {
  /// Waits until the container has finished: its own `finish()`.
  public func finish() async { await container.finish() }
}

extension ContainerService where Container.State == State {
  /// The container's state now.
  public var currentState: State { container.currentState }
  /// The container's states.
  public var states: Observable<State, Never> { container.states }
}

extension ContainerService where Container.State == State, Container: Reactor {
  /// The reactor's states, without consecutive equal ones (its `state` stream).
  public var states: Observable<State, Never> { container.state }
}

extension ContainerService where Container.Input == Intent {
  /// Sends the intent as the container's input.
  public func send(_ intent: Intent) { container.send(intent) }
}

extension ContainerService where Container.Input: IntentInput<Intent> {
  /// Sends the container's input that carries the intent.
  public func send(_ intent: Intent) { container.send(.intent(intent)) }
}
