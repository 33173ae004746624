public import CascadeStreams

/// A reactor's stub, for testing views: while ``Reactor/isStubEnabled`` is `true`, the reactor
/// records the actions it is sent instead of running `mutate` and `reduce`, and its state is
/// whatever the test sets.
///
/// ```swift
/// reactor.isStubEnabled = true
/// view.reactor = reactor
/// view.tapRefresh()
/// #expect(reactor.stub.actions.last == .refresh)
/// reactor.stub.state.value = MyReactor.State(isLoading: true)
/// #expect(view.isShowingSpinner)
/// ```
public final class ReactorStub<Action: Sendable, State: Sendable>: Sendable {
  private let recorded = LockedValue<[Action]>([])
  private let relay = LockedValue<StateRelay<State>?>(nil)
  private let initialState: @Sendable () -> State?

  /// The state the stubbed reactor shows: set ``StateRelay/value`` to drive a view.
  ///
  /// It starts as the reactor's `initialState`, read when the stub's state is first used: a
  /// reactor that is never stubbed keeps no copy of its initial state for the stub.
  public var state: StateRelay<State> {
    if let existing = relay.withLock({ $0 }) { return existing }
    // Read outside the lock: `initialState` is the reactor's code.
    guard let initial = initialState() else {
      preconditionFailure("The stub's state was first used after its reactor was released")
    }
    return relay.withLock { relay in
      if let existing = relay { return existing }
      let created = StateRelay(initial)
      relay = created
      return created
    }
  }

  /// Creates a stub whose state starts as what `initialState` returns on first use (`nil` once
  /// the reactor is gone).
  @usableFromInline
  init(initialState: @escaping @Sendable () -> State?) {
    self.initialState = initialState
  }

  /// The actions sent to the reactor while stubbed, in order.
  public var actions: [Action] { recorded.withLock { $0 } }

  @usableFromInline
  func record(_ action: Action) {
    recorded.withLock { $0.append(action) }
  }
}

/// A current value that can be read, set, and observed: ReactorKit's `StateRelay`.
public final class StateRelay<Value: Sendable>: ObservableType {
  /// The values.
  public typealias Element = Value
  /// A relay never fails.
  public typealias Failure = Never

  private let subject: BehaviorSubject<Value, Never>

  /// Creates a relay holding `value`.
  public init(_ value: Value) {
    subject = BehaviorSubject(value)
  }

  /// The current value; setting it emits the new value to subscribers.
  public var value: Value {
    get { subject.value }
    set { subject.onNext(newValue) }
  }

  /// Makes `value` the current value and emits it to subscribers: RxRelay's and ReactorKit's
  /// spelling of setting ``value``.
  public func accept(_ value: Value) {
    subject.onNext(value)
  }

  /// Subscribes `observer`: the current value, then every new one.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Value, Observer.Failure == Never {
    subject.subscribe(observer)
  }
}
