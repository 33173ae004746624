public import CascadeStore
public import CascadeStreams

/// A UI-independent object that turns actions into state: ReactorKit's and SwiftReactor's
/// `Reactor`.
///
/// An **action** (what the user did) goes through ``mutate(action:)`` into **mutations** (what
/// changes), which ``reduce(state:mutation:)`` (or ``reduce(into:mutation:)``) applies to the
/// **state**. The three `transform` hooks let you rework each stream, for example merging a
/// global state stream into the mutations.
///
/// Subclass ``BaseReactor`` (SwiftReactor's style), or conform a class of your own. A class of
/// your own may declare its ``runtime`` (the reactor's machinery), one line, and return
/// ``Mutations`` from ``mutate(action:)``: the fast form.
///
/// ```swift
/// final class CounterReactor: Reactor {
///   enum Action: Sendable { case increase, decrease }
///   enum Mutation: Sendable { case increaseValue, decreaseValue }
///   struct State: Sendable, Equatable { var value = 0 }
///
///   let initialState = State()
///   let runtime = ReactorRuntime<Action, Mutation, State>()
///
///   func mutate(action: Action) -> Mutations<Mutation> {
///     switch action {
///     case .increase: .just(.increaseValue)
///     case .decrease: .just(.decreaseValue)
///     }
///   }
///
///   func reduce(state: State, mutation: Mutation) -> State {
///     var newState = state
///     switch mutation {
///     case .increaseValue: newState.value += 1
///     case .decreaseValue: newState.value -= 1
///     }
///     return newState
///   }
/// }
///
/// let reactor = CounterReactor()
/// reactor.action.onNext(.increase)
/// reactor.currentState.value  // 1
/// ```
///
/// **ReactorKit's form.** A reactor written for ReactorKit conforms as it is: without the
/// `runtime` line, and with `mutate` returning an `Observable` of mutations:
///
/// ```swift
/// final class CounterReactor: Reactor {
///   // Action, Mutation, State, initialState and reduce as above.
///   func mutate(action: Action) -> Observable<Mutation, Never> {
///     switch action {
///     case .increase: .just(.increaseValue)
///     case .decrease: .just(.decreaseValue)
///     }
///   }
/// }
/// ```
///
/// Each costs something per action. Without a declared `runtime`, the reactor's runtime is
/// looked up in a table shared by all such reactors (a lock and a hash lookup, once per action),
/// and it is released not with the reactor but when the table is next swept (see
/// ``ReactorRuntimes``). An `Observable` of plain values (`.just`, `.empty`, a `concat` of such)
/// is applied at once without being subscribed, for one allocation (the `.just`); any other
/// stream is subscribed per action, where ``Mutations`` applies a synchronous mutation with no
/// allocation (see ``MutationsConvertible``). Both are measured in the benchmarks' W1
/// (`Tooling/Benchmarks`).
///
/// **Threads.** Send actions from any thread: they are handled one at a time, in order, and so are
/// the mutations. An action sent from inside `reduce`, a state subscriber or a middleware is
/// queued, not handled recursively.
///
/// **Defaults.** `Mutation` defaults to `Action`, and a reactor with no side effects writes only
/// `reduce`: when `Mutation` is `Action`, ``mutate(action:)`` defaults to applying the action as
/// a mutation. When they differ, the default `mutate` produces no mutation (ReactorKit's
/// default returns an empty stream).
///
/// **In place.** ``reduce(into:mutation:)`` mutates the state in place, with no copy; the
/// value-returning ``reduce(state:mutation:)`` of ReactorKit copies the state (which costs the
/// size of the state per mutation). Implement one of the two.
public protocol Reactor: AnyObject, Sendable {
  /// What the user (or the program) did.
  associatedtype Action: Sendable
  /// A change to the state.
  associatedtype Mutation: Sendable = Action
  /// The state of the view the reactor serves.
  associatedtype State: Sendable

  /// The state before any action.
  ///
  /// Read once, when the reactor starts (and again only if its stub's state is used). The
  /// reactor's state is then reduced in place; but a *stored* `let initialState` keeps the
  /// initial value alive, so with a large state (a big array, say) the first mutation copies it
  /// once. Where that matters, make it a computed property:
  ///
  /// ```swift
  /// var initialState: State { State(items: loadItems()) }
  /// ```
  var initialState: State { get }

  /// What ``mutate(action:)`` returns: ``Mutations`` (the default, inferred from `mutate`), or
  /// an `Observable` of mutations, as in ReactorKit (see ``MutationsConvertible``).
  associatedtype MutationResult: MutationsConvertible = Mutations<Mutation>
  where MutationResult.Mutation == Mutation

  /// The reactor's machinery: its store, action input, stub.
  ///
  /// Declare it as a stored property, the fast path:
  /// `let runtime = ReactorRuntime<Action, Mutation, State>()`. A reactor that declares none gets
  /// one from a table shared by all reactors, keyed by the reactor's identity, as ReactorKit keeps
  /// it in associated objects; that costs a lookup per use and releases the runtime later than
  /// its reactor (see ``ReactorRuntimes``).
  var runtime: ReactorRuntime<Action, Mutation, State> { get }

  /// Turns an action into mutations; every side effect is started here.
  ///
  /// Return ``Mutations`` (the fast form, with synchronous mutations applied without a stream),
  /// or, as ReactorKit's reactors do, an `Observable<Mutation, Never>` or
  /// `Observable<Mutation, any Error>`.
  func mutate(action: Action) -> MutationResult

  /// Returns the state after `mutation`; it must be pure.
  ///
  /// Implement this or ``reduce(into:mutation:)``; each default calls the other. A reactor
  /// that implements neither keeps its state unchanged, as ReactorKit's default does.
  func reduce(state: State, mutation: Mutation) -> State

  /// Applies `mutation` to the state in place; it must be pure. The default calls
  /// ``reduce(state:mutation:)``.
  func reduce(into state: inout State, mutation: Mutation)

  /// Reworks the action stream, once, when the reactor starts. Default: unchanged.
  func transform(action: Observable<Action, Never>) -> Observable<Action, Never>

  /// Reworks the mutation stream, once, when the reactor starts: the place to merge global
  /// state streams in. Default: unchanged.
  func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never>

  /// Reworks the state stream, once, when the reactor starts. Default: unchanged.
  func transform(state: Observable<State, Never>) -> Observable<State, Never>

  /// Where the state stream (`state`) delivers. Default: the main queue, through a
  /// `MainScheduler` of the reactor's own, so delivery is synchronous when the action was sent
  /// on the main queue and none of this reactor's states waits there (other work waiting on the
  /// main queue does not delay it). Read once, when the reactor starts.
  var scheduler: any Scheduler { get }

  /// Whether the state stream delivers every state on ``scheduler``, in order, however far
  /// behind its subscribers are. Default `false`: a subscriber that is behind gets the
  /// **latest** state — a state that arrives while another waits for its delivery replaces it —
  /// so a burst of actions never builds a backlog (see ``deliveryBacklog`` and
  /// ``coalescedDeliveries``). States delivered on the reducing thread (an
  /// `ImmediateScheduler`) are every state either way. Read once, when the reactor starts.
  var deliversEveryState: Bool { get }

  /// Middlewares that see every action, its mutations and the resulting state. Default: none.
  var middlewares: [any Middleware<Action, State>] { get }

  /// Receives what goes wrong in the reactor's machinery: a failed asynchronous mutation
  /// (`StoreDiagnostic.effectFailed`), an action sent after the reactor closed. Read once, when
  /// the reactor starts. Default: `nil`, which reports them as test failures or runtime warnings.
  ///
  /// Route them to an `ErrorReportingMiddleware` with its `reportFailure(_:source:state:)`.
  var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? { get }
}

extension Reactor {
  /// Unchanged.
  public func transform(action: Observable<Action, Never>) -> Observable<Action, Never> {
    TransformProbe.noteDefault(of: self)
    return action
  }

  /// Unchanged.
  public func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
    TransformProbe.noteDefault(of: self)
    return mutation
  }

  /// Unchanged.
  public func transform(state: Observable<State, Never>) -> Observable<State, Never> {
    TransformProbe.noteDefault(of: self)
    return state
  }

  /// The main queue: a new `MainScheduler`, read once when the reactor starts, so that only
  /// this reactor's own waiting states make a delivery wait.
  public var scheduler: any Scheduler { MainScheduler() }

  /// `false`: subscribers that are behind get the latest state.
  public var deliversEveryState: Bool { false }

  /// `nil`: failures are reported as test failures or runtime warnings.
  public var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? { nil }

  /// None.
  public var middlewares: [any Middleware<Action, State>] { [] }

  /// Calls ``reduce(state:mutation:)`` (which copies the state).
  public func reduce(into state: inout State, mutation: Mutation) {
    state = DefaultReduce.$reactor.withValue(ObjectIdentifier(self)) {
      reduce(state: state, mutation: mutation)
    }
  }

  /// Calls ``reduce(into:mutation:)`` on a copy of the state; for a reactor that implements
  /// neither, returns the state unchanged (as ReactorKit's default does).
  public func reduce(state: State, mutation: Mutation) -> State {
    // Called by the default `reduce(into:)` of this same reactor: the reactor implements
    // neither, and calling back would recurse until the stack overflows.
    if DefaultReduce.reactor == ObjectIdentifier(self) { return state }
    var copy = state
    reduce(into: &copy, mutation: mutation)
    return copy
  }
}

extension Reactor where Mutation == Action, MutationResult == Mutations<Action> {
  /// Applies the action as a mutation, at once: the default when `Mutation` is `Action` (as it
  /// is when a reactor declares no `Mutation`).
  public func mutate(action: Action) -> Mutations<Action> { Mutations(sync: [action]) }
}

extension Reactor where MutationResult == Mutations<Mutation> {
  /// No mutation: the default when `Mutation` differs from `Action`, as ReactorKit's default
  /// `mutate` returns an empty stream.
  public func mutate(action: Action) -> Mutations<Mutation> { Mutations(sync: []) }
}

/// Which reactor's default `reduce(into:)` is calling its `reduce(state:)` on this task or
/// thread, so that the default `reduce(state:)` of a reactor implementing neither returns the
/// state instead of calling back into `reduce(into:)` forever.
enum DefaultReduce {
  @TaskLocal static var reactor: ObjectIdentifier?
}
