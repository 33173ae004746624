#if canImport(Observation)
public import Observation
import CascadeStreams

/// A selection of a store's state that SwiftUI (and any `Observation` client) can observe.
///
/// It holds the latest selection in an `@Observable` property, updated on the main actor after
/// each input that changes it. Select what a view needs rather than the whole state: the copy
/// held here shares storage with the store's state, and a whole-state copy would make the
/// store's next in-place update copy its buffers.
///
/// ```swift
/// @MainActor struct CounterView: View {
///   let model = store.observe { $0.count }
///   var body: some View { Text("\(model.value)") }
/// }
/// ```
@Observable
@MainActor
public final class ObservedSelection<Value: Sendable & Equatable> {
  /// The latest selection.
  public private(set) var value: Value
  @ObservationIgnored private var subscription: (any Disposable)?

  init<State: Sendable, Action: Sendable>(
    store: Store<State, Action>,
    select: @escaping @Sendable (State) -> Value
  ) {
    value = select(store.state)
    let box = WeakObservation(self)
    subscription = store.subscribe(select: select, on: .main) { value in
      MainActor.assumeIsolated { box.object?.value = value }
    }
  }

  isolated deinit {
    subscription?.dispose()
  }
}

extension Store {
  /// A selection of the state, observable with `Observation` (SwiftUI's `@Observable`).
  @MainActor
  public func observe<Value: Sendable & Equatable>(
    _ select: @escaping @Sendable (State) -> Value
  ) -> ObservedSelection<Value> {
    ObservedSelection(store: self, select: select)
  }
}

/// A weak reference to an observation, handed to the store's subscription.
private final class WeakObservation<Value: Sendable & Equatable>: @unchecked Sendable {
  // Safety: `object` is a weak reference (loaded atomically) to a main-actor object; it is only
  // dereferenced inside `MainActor.assumeIsolated`, where the store delivers.
  weak var object: ObservedSelection<Value>?

  init(_ object: ObservedSelection<Value>) {
    self.object = object
  }
}
#endif
