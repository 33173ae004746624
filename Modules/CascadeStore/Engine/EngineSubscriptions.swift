public import CascadeStreams

extension StoreEngine {
  // MARK: - Subscriptions (on the thread holding the processing token)

  /// Subscribes `entry` to the element at `index` of the collection at `path`, through the
  /// collection's ``ElementGroup``.
  @inlinable
  func subscribe<Elements: RandomAccessCollection & Sendable>(
    _ path: any KeyPath<State, Elements> & Sendable,
    at index: Elements.Index,
    entry: ElementEntry<Elements.Element>
  ) where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    submit(
      .run(
        { [self] in
          group(for: path).join(entry, at: index, state: machine.pointee.state)
        },
        dropped: { if entry.cancel() { entry.onClose?() } }
      )
    )
  }

  /// The group of `path`, created and attached on first use; on the processing thread.
  @inlinable
  func group<Elements: RandomAccessCollection & Sendable>(
    for path: any KeyPath<State, Elements> & Sendable
  ) -> ElementGroup<State, Elements>
  where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    if let existing = elementGroups[path] as? ElementGroup<State, Elements> { return existing }
    let group = ElementGroup<State, Elements>(path: path)
    let box = SubscriptionBox<State>(
      owner: nil,
      orphaned: nil,
      onClose: { group.storeDidClose() },
      body: { _, state, initial in
        // Joining delivers each entry's first value; the group itself has nothing to send.
        if !initial { group.notify(state) }
      }
    )
    group.box = box
    elementGroups[path] = group
    attach(box)
    return group
  }

  /// Ends `entry` and removes it from its group; a group left empty leaves the store.
  @inlinable
  func leave<Elements: RandomAccessCollection & Sendable>(
    _ entry: ElementEntry<Elements.Element>,
    of path: any KeyPath<State, Elements> & Sendable
  ) where Elements.Element: Equatable & Sendable, Elements.Index: Sendable {
    guard entry.cancel() else { return }
    submit(
      .run(
        { [self] in
          guard let group = elementGroups[path] as? ElementGroup<State, Elements>,
            group.entryEnded()
          else { return }
          elementGroups[path] = nil
          if let box = group.box { detach(box) }
          group.box = nil  // The box's body holds the group: break the cycle.
        },
        dropped: {}
      )
    )
  }

  /// Adds `box` to the subscriptions and delivers the current state to it.
  ///
  /// A box serving an owner (a ``Subscriber``) replaces that owner's earlier subscription, as
  /// ReSwift's `subscribe` does: a subscriber is subscribed once, with the selection it was last
  /// added with.
  @usableFromInline
  func attach(_ box: SubscriptionBox<State>) {
    let (attached, replaced) = storage.withLock { $0.attach(box) }
    _ = replaced?.cancel()
    if attached {
      box.notifyInitial(machine.pointee.state)
    } else {
      _ = box.cancel()
    }
  }

  /// Starts `box` (its first delivery is the state now, in order with the inputs) and returns
  /// what ends it, holding the engine weakly.
  @inlinable
  func start(_ box: SubscriptionBox<State>) -> any Disposable {
    submit(.subscribe(box))
    return Disposables.create { [weak self] in self?.detach(box) }
  }

  @usableFromInline
  func detach(_ box: SubscriptionBox<State>) {
    guard box.cancel() else { return }
    storage.withLock { $0.detach(box) }
  }

  /// Ends every subscription serving `owner`.
  func detach(owner: ObjectIdentifier) {
    for box in storage.withLock({ $0.detach(owner: owner) }) { _ = box.cancel() }
  }

  var subscriptionCount: Int { storage.withLock { $0.subscriptions.count } }
}
