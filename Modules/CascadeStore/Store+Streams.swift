public import CascadeStreams

extension Store {
  /// The states as a stream: the current state on subscription, then every new one, delivered
  /// synchronously on the thread that processed the input.
  ///
  /// Completes when the store shuts down.
  ///
  /// ```swift
  /// store.states.map(\.count).subscribe(onNext: { print($0) })
  /// for await state in store.states.values { … }
  /// ```
  @inlinable
  public var states: Infallible<State> {
    // The whole state, handed on as the engine delivers it: a selection that returns it would
    // copy it for each subscriber (see `SubscriptionBox.make(delivery:…)`).
    stream { observer in
      SubscriptionBox<State>.make(
        delivery: .synchronous,
        onClose: observer.onCompleted,
        handler: observer.onNext
      )
    }
  }

  /// A selection of the state as a stream: the current selection, then each recomputed one.
  @inlinable
  public func select<Selected: Sendable>(
    _ select: @escaping @Sendable (State) -> Selected
  ) -> Infallible<Selected> {
    stream(select: select, isDuplicate: nil)
  }

  /// An `Equatable` selection of the state as a stream, without repeats (unless the store was
  /// made with `automaticallySkipsRepeats: false`).
  ///
  /// ```swift
  /// store.select(\.player.level).subscribe(onNext: { print("level", $0) })
  /// ```
  @inlinable
  public func select<Selected: Sendable & Equatable>(
    _ select: @escaping @Sendable (State) -> Selected
  ) -> Infallible<Selected> {
    stream(select: select, isDuplicate: skipsRepeats())
  }

  /// One element of a collection in the state as a stream, by index: the element now, then every
  /// time it changes; it completes when the store shuts down.
  ///
  /// It goes through the store's subscription index, like
  /// ``subscribe(_:at:on:_:)``: a thousand such streams on one collection cost one pass over
  /// the subscribed elements per input, and only the changed ones emit.
  ///
  /// ```swift
  /// store.select(\.items, at: 3).subscribe(onNext: { item in print(item) })
  /// ```
  @inlinable
  public func select<Elements: RandomAccessCollection & Sendable>(
    _ collection: any KeyPath<State, Elements> & Sendable,
    at index: Elements.Index
  ) -> Infallible<Elements.Element>
  where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    Observable(unchecked: { [weak engine] observer in
      guard let engine else {
        observer.onCompleted()
        return Disposables.empty
      }
      let entry = ElementEntry<Elements.Element>(
        delivery: .synchronous,
        onClose: { observer.onCompleted() },
        handler: { observer.onNext($0) }
      )
      engine.subscribe(collection, at: index, entry: entry)
      return Disposables.create { [weak engine] in
        if let engine { engine.leave(entry, of: collection) } else { entry.cancel() }
      }
    })
  }

  /// The states as an `AsyncSequence` (unbounded buffer): the current state, then every new one;
  /// it ends when the store shuts down.
  public var values: ObservableValues<State, Never> { states.values }

  /// The stream of a selection.
  ///
  /// The store serializes a subscription's deliveries (its values on the processing thread, its end
  /// after that thread is done), so the observer gets the stream grammar without a serializing sink
  /// on the way.
  @inlinable
  func stream<Selected: Sendable>(
    select: @escaping @Sendable (State) -> Selected,
    isDuplicate: (@Sendable (Selected, Selected) -> Bool)?
  ) -> Infallible<Selected> {
    stream { observer in
      SubscriptionBox<State>.make(
        select: select,
        isDuplicate: isDuplicate,
        delivery: .synchronous,
        onClose: observer.onCompleted,
        handler: observer.onNext
      )
    }
  }

  /// A stream of what the subscription `subscription` makes for each observer delivers.
  @inlinable
  func stream<Element: Sendable>(
    _ subscription:
      @escaping @Sendable (DirectObserver<Element, Never>) -> SubscriptionBox<State>
  ) -> Infallible<Element> {
    // The store delivers to the observer itself: `subscribe(onNext:)`'s closures without an
    // `AnyObserver` between (`Observable.directSubscribe`).
    Observable(direct: { [weak engine] observer in
      guard let engine else {
        observer.onCompleted()
        return Disposables.empty
      }
      let box = subscription(observer)
      return engine.start(box)
    })
  }
}
