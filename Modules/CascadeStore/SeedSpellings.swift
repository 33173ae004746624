// The seeds' spellings: the "Reactor" seed's names for what CascadeStore names otherwise.
//
// The seed's `Core` is a ``Store`` of a ``CoreState`` reacting to ``CoreEvent``s. Its protocols
// are `State` and `Event`, names that collide with every generic parameter called `State` or
// `Event` (in such a scope, `State` is the parameter, and the protocol must be written
// `CascadeStore.State`); Cascade's own names are `CoreState` and `CoreEvent`. The seed creates a
// core with `Core(state:)`, where every Cascade architecture says `initialState:`, and sends an
// event with `fire(event:)`, Cascade's `send(_:)`.
//
// Code written from the seed's README compiles unchanged with the spellings below. They are not
// deprecated: each is the declaration it names, or forwards to it and behaves as it does.

public import CascadeStreams

/// The seed's name for ``CoreState``: application state that reacts to events.
public typealias State = CoreState

/// The seed's name for ``CoreEvent``: something that happened and may change the state.
public typealias Event = CoreEvent

extension Store where Action == any CoreEvent, State: CoreState {
  /// The seed's `Core(state:middlewares:)`:
  /// ``init(initialState:middlewares:isolation:reentrancy:scheduler:diagnostics:automaticallySkipsRepeats:)``.
  ///
  /// ```swift
  /// enum App {
  ///   static let sharedCore = Core(state: RPGState(), middlewares: [LoggingMiddleware()])
  /// }
  /// ```
  public convenience init(
    state: State,
    middlewares: [any Middleware<any CoreEvent, State>] = [],
    isolation: StoreIsolation = .callerThread,
    reentrancy: ReentrancyPolicy = .queue,
    scheduler: any Scheduler = ConcurrentDispatchQueueScheduler(),
    diagnostics: (@Sendable (StoreDiagnostic) -> Void)? = nil,
    automaticallySkipsRepeats: Bool = true
  ) {
    self.init(
      initialState: state,
      middlewares: middlewares,
      isolation: isolation,
      reentrancy: reentrancy,
      scheduler: scheduler,
      diagnostics: diagnostics,
      automaticallySkipsRepeats: automaticallySkipsRepeats
    )
  }

  /// Fires an event: the seed's name for ``send(_:)``.
  @inlinable @inline(__always)
  public func fire(event: any CoreEvent) {
    send(event)
  }
}
