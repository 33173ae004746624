public import CascadeStore
public import CascadeStreams

/// A reactor to subclass: SwiftReactor's `BaseReactor`.
///
/// Override ``mutate(action:)`` and one of ``reduce(state:mutation:)`` or
/// ``reduce(into:mutation:)``; the `transform` hooks, ``scheduler`` and ``middlewares`` as
/// needed.
///
/// ```swift
/// final class ExampleReactor: BaseReactor<ExampleReactor.Action, ExampleReactor.Mutation,
///   ExampleReactor.State>, @unchecked Sendable
/// {
///   // Safety: no stored state of its own; BaseReactor's machinery is thread-safe.
///   enum Action: Sendable { case enterText(String) }
///   enum Mutation: Sendable { case setText(String) }
///   struct State: Sendable { var text = "initial text" }
///
///   init() { super.init(initialState: State()) }
///
///   override func mutate(action: Action) -> Mutations<Mutation> {
///     switch action {
///     case .enterText(let text): [.setText(text)]
///     }
///   }
///
///   override func reduce(into state: inout State, mutation: Mutation) {
///     switch mutation {
///     case .setText(let text): state.text = text
///     }
///   }
/// }
/// ```
open class BaseReactor<Action: Sendable, Mutation: Sendable, State: Sendable>: Reactor,
  StateContainer, @unchecked Sendable
{
  // Safety: the stored properties are immutable and Sendable; subclasses that add mutable state
  // must guard it (the reactor's own state lives in its runtime, which is thread-safe).

  /// What the reactor processes: its actions.
  public typealias Input = Action

  /// The state before any action.
  public let initialState: State

  /// The reactor's machinery.
  public let runtime = ReactorRuntime<Action, Mutation, State>()

  /// Creates a reactor starting from `initialState`.
  public init(initialState: State) {
    self.initialState = initialState
  }

  /// Override to turn an action into mutations.
  ///
  /// The default applies the action as a mutation when `Action` is `Mutation`, and does nothing
  /// otherwise.
  open func mutate(action: Action) -> Mutations<Mutation> {
    if let mutation = action as? Mutation { return [mutation] }
    return .none
  }

  /// Override to return the state after a mutation (ReactorKit's and SwiftReactor's form).
  ///
  /// The default returns the state unchanged.
  open func reduce(state: State, mutation: Mutation) -> State { state }

  /// Override to apply a mutation in place (no copy of the state).
  ///
  /// The default calls ``reduce(state:mutation:)``.
  open func reduce(into state: inout State, mutation: Mutation) {
    state = reduce(state: state, mutation: mutation)
  }

  /// Override to rework the action stream.
  ///
  /// Default: unchanged. An override need not call `super`, and must not: the reactor takes a
  /// call of this default as "no transform" and skips the stream.
  open func transform(action: Observable<Action, Never>) -> Observable<Action, Never> {
    TransformProbe.noteDefault(of: self)
    return action
  }

  /// Override to rework the mutation stream (merge global state in).
  ///
  /// Default: unchanged. An override need not call `super`, and must not: the reactor takes a
  /// call of this default as "no transform" and skips the stream.
  open func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
    TransformProbe.noteDefault(of: self)
    return mutation
  }

  /// Override to rework the state stream.
  ///
  /// Default: unchanged.
  open func transform(state: Observable<State, Never>) -> Observable<State, Never> {
    TransformProbe.noteDefault(of: self)
    return state
  }

  /// Override to deliver the state stream elsewhere.
  ///
  /// Default: the main queue, through a new `MainScheduler` (read once, when the reactor
  /// starts), so that only this reactor's own waiting states make a delivery wait.
  open var scheduler: any Scheduler { MainScheduler() }

  /// Override to attach middlewares.
  ///
  /// Default: none.
  open var middlewares: [any Middleware<Action, State>] { [] }

  /// Override to receive what goes wrong in the reactor's machinery (a failed asynchronous
  /// mutation, say).
  ///
  /// Default: `nil`, which reports failures as test failures or runtime warnings.
  open var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? { nil }
}
