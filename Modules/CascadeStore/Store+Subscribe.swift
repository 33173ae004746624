public import CascadeStreams

extension Store {
  /// Subscribes to the whole state: `handler` receives the current state, then every new one.
  ///
  /// The initial state and the updates are ordered with the inputs: no input can slip between
  /// the initial state and the first update, whatever thread sends it.
  ///
  /// - Parameters:
  ///   - delivery: Where `handler` runs. Default: the main queue (synchronously when the input
  ///     was processed there).
  ///   - handler: Receives each state.
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  @discardableResult
  public func subscribe(
    on delivery: Delivery = .main,
    _ handler: @escaping @Sendable (State) -> Void
  ) -> any Disposable {
    // The whole state, handed on as the engine delivers it, not copied by a selection.
    let box = SubscriptionBox<State>.make(
      delivery: delivery,
      counters: engine.deliveryCounters,
      handler: handler
    )
    return engine.start(box)
  }

  /// Subscribes to an `Equatable` state: `handler` receives the current state, then every new
  /// one that differs from the last it received — unless the store was made with
  /// `automaticallySkipsRepeats: false`, when it receives every one (ReSwift's rule; a reactor's
  /// `state` stream skips equal states too).
  ///
  /// - Parameters:
  ///   - delivery: Where `handler` runs. Default: the main queue.
  ///   - handler: Receives each state.
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  @discardableResult
  public func subscribe(
    on delivery: Delivery = .main,
    _ handler: @escaping @Sendable (State) -> Void
  ) -> any Disposable where State: Equatable {
    subscribe(select: { $0 }, isDuplicate: skipsRepeats(), on: delivery, handler)
  }

  /// Subscribes to a selection of the state; `handler` receives it now, then every time it is
  /// recomputed after an input.
  ///
  /// - Parameters:
  ///   - select: Narrows the state to what the subscriber needs.
  ///   - isDuplicate: Skips a selection equal to the previous one; `nil` delivers every one.
  ///   - delivery: Where `handler` runs.
  ///   - handler: Receives each selection.
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  @discardableResult
  public func subscribe<Selected: Sendable>(
    select: @escaping @Sendable (State) -> Selected,
    isDuplicate: (@Sendable (Selected, Selected) -> Bool)?,
    on delivery: Delivery = .main,
    _ handler: @escaping @Sendable (Selected) -> Void
  ) -> any Disposable {
    let box = SubscriptionBox<State>.make(
      select: select,
      isDuplicate: isDuplicate,
      delivery: delivery,
      counters: engine.deliveryCounters,
      handler: handler
    )
    return engine.start(box)
  }

  /// Subscribes to an `Equatable` selection of the state, skipping repeats: `handler` runs only
  /// when the selection changes (unless the store was made with
  /// `automaticallySkipsRepeats: false`).
  ///
  /// ```swift
  /// store.subscribe(select: \.player.level) { level in print("level", level) }
  /// ```
  @inlinable
  @discardableResult
  public func subscribe<Selected: Sendable & Equatable>(
    select: @escaping @Sendable (State) -> Selected,
    on delivery: Delivery = .main,
    _ handler: @escaping @Sendable (Selected) -> Void
  ) -> any Disposable {
    subscribe(select: select, isDuplicate: skipsRepeats(), on: delivery, handler)
  }

  /// `==`, if the store skips repeats of `Equatable` values (``automaticallySkipsRepeats``).
  @inlinable
  func skipsRepeats<Value: Equatable & Sendable>() -> (@Sendable (Value, Value) -> Bool)? {
    guard engine.automaticallySkipsRepeats else { return nil }
    return { (previous: Value, next: Value) in previous == next }
  }

  /// Subscribes to one element of a collection in the state, by index: `handler` receives the
  /// element now, then every time it changes.
  ///
  /// Subscriptions to elements of the same collection share the store's subscription index: after
  /// each input the store reads the collection once and compares the subscribed elements in one
  /// tight loop, so a thousand subscribers cost about as much as one selector each would in a
  /// plain loop, and only the subscribers whose element changed are called. Prefer it to
  /// `subscribe(select: { $0.items[index] })`, which runs one closure per subscriber per input.
  ///
  /// While `index` is outside the collection (it shrank), nothing is delivered; when the
  /// element comes back, its value is delivered if it differs from the last one delivered.
  ///
  /// ```swift
  /// for row in visibleRows {
  ///   store.subscribe(\.items, at: row) { item in cells[row].show(item) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - collection: The key path of the collection.
  ///   - index: The element's index.
  ///   - delivery: Where `handler` runs. Default: the main queue.
  ///   - handler: Receives the element.
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  @discardableResult
  public func subscribe<Elements: RandomAccessCollection & Sendable>(
    _ collection: any KeyPath<State, Elements> & Sendable,
    at index: Elements.Index,
    on delivery: Delivery = .main,
    _ handler: @escaping @Sendable (Elements.Element) -> Void
  ) -> any Disposable where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    let entry = ElementEntry(
      delivery: delivery,
      onClose: nil,
      counters: engine.deliveryCounters,
      handler: handler
    )
    engine.subscribe(collection, at: index, entry: entry)
    return Disposables.create { [weak engine] in
      if let engine { engine.leave(entry, of: collection) } else { entry.cancel() }
    }
  }

  /// Adds a subscriber, held weakly; it receives the current state now, then each change, on the
  /// main actor.
  ///
  /// The seed's `core.add(subscriber: self)`, and ReSwift's `store.subscribe(self)`. A subscriber
  /// is subscribed once: adding one that is already added replaces its subscription (with the
  /// new selection, which receives the current state), as ReSwift does. An `Equatable` state is
  /// not delivered again when equal to the last one (see ``automaticallySkipsRepeats``).
  public func add<S: Subscriber & SendableMetatype>(subscriber: S) where S.StoreState == State {
    add(subscriber: subscriber, selector: { $0 }, isDuplicate: nil)
  }

  /// Adds a subscriber to an `Equatable` state, skipping a state equal to the last one it
  /// received unless the store was made with `automaticallySkipsRepeats: false`.
  public func add<S: Subscriber & SendableMetatype>(subscriber: S)
  where S.StoreState == State, State: Equatable {
    add(subscriber: subscriber, selector: { $0 }, isDuplicate: skipsRepeats())
  }

  /// Adds a subscriber that receives the part of the state `selector` picks; the selector is
  /// applied to every update.
  public func add<S: Subscriber & SendableMetatype>(
    subscriber: S,
    selector: @escaping @Sendable (State) -> S.StoreState
  ) {
    add(subscriber: subscriber, selector: selector, isDuplicate: nil)
  }

  /// Adds a subscriber to an `Equatable` part of the state, skipping a selection equal to the
  /// last one it received unless the store was made with `automaticallySkipsRepeats: false`.
  public func add<S: Subscriber & SendableMetatype>(
    subscriber: S,
    selector: @escaping @Sendable (State) -> S.StoreState
  ) where S.StoreState: Equatable {
    add(subscriber: subscriber, selector: selector, isDuplicate: skipsRepeats())
  }

  /// Adds a subscriber that receives the part of the state `selector` picks, skipping a
  /// selection for which `isDuplicate(last, new)` is `true`: ReSwift's `skipRepeats(_:)` and
  /// `skip(when:)`; its `only(when:)` is the negation.
  ///
  /// ```swift
  /// store.add(subscriber: view, selector: \.player, isDuplicate: { $0.level == $1.level })
  /// ```
  ///
  /// - Parameters:
  ///   - subscriber: The subscriber, held weakly. Adding one already added replaces its
  ///     subscription.
  ///   - selector: Picks what the subscriber receives.
  ///   - isDuplicate: Whether the new selection (second) repeats the last one received (first);
  ///     `nil` delivers every one.
  public func add<S: Subscriber & SendableMetatype>(
    subscriber: S,
    selector: @escaping @Sendable (State) -> S.StoreState,
    isDuplicate: (@Sendable (S.StoreState, S.StoreState) -> Bool)?
  ) {
    let reference = WeakReference(subscriber)
    let box = SubscriptionBox<State>.make(
      select: selector,
      isDuplicate: isDuplicate,
      delivery: .main,
      owner: ObjectIdentifier(subscriber),
      orphaned: { reference.object == nil },
      counters: engine.deliveryCounters
    ) { selected in
      MainActor.assumeIsolated { reference.object?.update(with: selected) }
    }
    engine.submit(.subscribe(box))
  }

  /// Removes a subscriber added with ``add(subscriber:)-55g4m``.
  public func remove<S: Subscriber>(subscriber: S) {
    engine.detach(owner: ObjectIdentifier(subscriber))
  }
}
