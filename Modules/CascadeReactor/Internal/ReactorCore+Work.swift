public import CascadeStore
public import CascadeStreams

extension ReactorCore {
  /// A selection of the state, delivered like the state stream (after `transform(state:)`
  /// when the reactor reworks states).
  @inlinable
  func selectionStream<Selected: Sendable & Equatable>(
    _ select: @escaping @Sendable (State) -> Selected
  ) -> Observable<Selected, Never> {
    if statesTransformed {
      return stateStream.map(select).distinctUntilChanged().asObservable()
    }
    let selected = store.select(select)
    if deliveredDirectly { return selected }
    return Self.deliver(selected, on: scheduler, everyState: deliversEveryState, counting: store)
  }

  /// One element of a collection in the state, by index, delivered like the state stream:
  /// through the store's subscription index, or after `transform(state:)` when the reactor
  /// reworks states.
  @inlinable
  func elementStream<Elements: RandomAccessCollection & Sendable>(
    _ collection: any KeyPath<State, Elements> & Sendable,
    at index: Elements.Index
  ) -> Observable<Elements.Element, Never>
  where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    if statesTransformed {
      return stateStream.compactMap { Self.element(of: $0[keyPath: collection], at: index) }
        .distinctUntilChanged().asObservable()
    }
    let selected = store.select(collection, at: index)
    if deliveredDirectly { return selected }
    return Self.deliver(selected, on: scheduler, everyState: deliversEveryState, counting: store)
  }

  /// The element at `index`, if `elements` has one there.
  @inlinable
  static func element<Elements: RandomAccessCollection>(
    of elements: Elements,
    at index: Elements.Index
  ) -> Elements.Element? {
    index >= elements.startIndex && index < elements.endIndex ? elements[index] : nil
  }

  /// Ends the machinery: the store shuts down (cancelling its tasks), and every stream —
  /// the hooks', and the mutation streams in flight — is disposed.
  func shutdown() async {
    streams.dispose()
    await store.shutdown()
  }

  /// Cancels the work started under `id`: its tasks and its streams.
  @usableFromInline
  func cancel(id: some Hashable & Sendable) {
    store.cancel(id: id)
  }
}
