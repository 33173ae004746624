public import CascadeFeedback
public import CascadeReactor
public import CascadeStore

/// The architecture a ``TestStore`` runs: what it sends, what it receives, and what it tests.
///
/// A test store's type names its architecture, though tests rarely spell it:
/// `TestStore<StoreArchitecture<Counter, Counter.Action>>` from `TestStore(initialState:reducer:)`,
/// `TestStore<ReactorArchitecture<CounterReactor>>` from `TestStore(reactor:)`,
/// `TestStore<FeedbackLoopArchitecture<Search, Search.Event>>` from `TestStore(loop:)`. The
/// three conforming types are the only architectures a test store can be made for.
public protocol TestStoreArchitecture: Sendable {
  /// The state the test store asserts.
  associatedtype State: Sendable & Equatable
  /// What `send` takes: a store's or a reactor's actions, a loop's events.
  associatedtype Action: Sendable
  /// What `receive` asserts: a store's actions, a reactor's mutations, a loop's events.
  associatedtype Received: Sendable
  /// What is under test: the store, the reactor or the loop.
  associatedtype Subject: Sendable
}

/// A CascadeStore `Store` under a ``TestStore``: it sends actions, and receives the actions that
/// commands, middlewares and subscribers send.
public enum StoreArchitecture<State: Sendable & Equatable, Action: Sendable>:
  TestStoreArchitecture
{
  /// Actions that the store reduces without the test store sending them.
  public typealias Received = Action
  /// The store.
  public typealias Subject = Store<State, Action>
}

/// A CascadeReactor `Reactor` under a ``TestStore``: it sends actions, and receives the mutations
/// that asynchronous work produces.
public enum ReactorArchitecture<R: Reactor>: TestStoreArchitecture where R.State: Equatable {
  /// The reactor's state.
  public typealias State = R.State
  /// The reactor's actions.
  public typealias Action = R.Action
  /// The reactor's mutations.
  public typealias Received = R.Mutation
  /// The reactor.
  public typealias Subject = R
}

/// A CascadeFeedback `FeedbackLoop` under a ``TestStore``: it sends events, and receives the
/// events that feedback effects emit.
public enum FeedbackLoopArchitecture<State: Sendable & Equatable, Event: Sendable>:
  TestStoreArchitecture
{
  /// The loop's events, sent from outside.
  public typealias Action = Event
  /// The loop's events, emitted by its feedbacks.
  public typealias Received = Event
  /// The loop.
  public typealias Subject = FeedbackLoop<State, Event>
}
