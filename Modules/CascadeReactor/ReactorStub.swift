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

  /// The state the stubbed reactor shows: set ``StateRelay/value`` to drive a view.
  public let state: StateRelay<State>

  @usableFromInline
  init(initialState: State) {
    state = StateRelay(initialState)
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

  /// Subscribes `observer`: the current value, then every new one.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Value, Observer.Failure == Never {
    subject.subscribe(observer)
  }
}
