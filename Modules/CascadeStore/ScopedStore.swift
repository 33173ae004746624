public import CascadeStreams

/// A view of part of a store: a feature sees only its substate and sends only its own actions.
///
/// A scoped store keeps its store alive.
///
/// ```swift
/// let player = appStore.scope(state: \.player, action: AppAction.player)
/// player.send(.levelUp)          // sends AppAction.player(.levelUp) to the app's store
/// player.state.level             // reads the app's state
/// ```
public struct ScopedStore<State: Sendable, Action: Sendable>: Sendable {
  private let read: @Sendable () -> State
  private let write: @Sendable (Action) -> Void
  private let stream: @Sendable () -> Infallible<State>

  init(
    read: @escaping @Sendable () -> State,
    write: @escaping @Sendable (Action) -> Void,
    stream: @escaping @Sendable () -> Infallible<State>
  ) {
    self.read = read
    self.write = write
    self.stream = stream
  }

  /// The substate, read from the parent store.
  public var state: State { read() }

  /// Sends an action through the parent store.
  public func send(_ action: Action) { write(action) }

  /// The substate as a stream: the current value, then each recomputed one.
  public var states: Infallible<State> { stream() }

  /// Narrows this view further.
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state toChild: @escaping @Sendable (State) -> ChildState,
    action fromChild: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<ChildState, ChildAction> {
    let read = self.read
    let write = self.write
    let stream = self.stream
    return ScopedStore<ChildState, ChildAction>(
      read: { toChild(read()) },
      write: { write(fromChild($0)) },
      stream: { stream().map(toChild).asObservable() }
    )
  }
}

extension Store {
  /// A view of the substate `toChild` picks, sending actions that `fromChild` embeds in this
  /// store's actions.
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state toChild: @escaping @Sendable (State) -> ChildState,
    action fromChild: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<ChildState, ChildAction> {
    ScopedStore(
      read: { [self] in toChild(state) },
      write: { [self] in send(fromChild($0)) },
      stream: { [self] in select(toChild) }
    )
  }
}
