public import CascadeStreams
public import Synchronization

extension StoreEngine {
  // MARK: - Processing (on the thread holding the processing token)

  @inlinable
  func process(_ work: Work, sender: StepSender?) {
    switch work {
    case .action(let action, let origin, let mark):
      if let origin {
        if origin.isCancelled { return }
        if origin.isReplay {
          processingReplay.store(true, ordering: .relaxed)
          reduce(action, mark: mark, sender: sender)
          processingReplay.store(false, ordering: .relaxed)
          return
        }
      }
      reduce(action, mark: mark, sender: sender)
    case .subscribe(let box): attach(box)
    case .command(let command): run(command)
    case .expireCommands: expireCommands()
    case .cancel(let id): cancel(id: id)
    case .run(let body, _): body()
    }
  }

  /// Runs the middlewares' interception, the architecture's ``step`` (if any), and reduces what
  /// it says to reduce now.
  @inlinable
  func reduce(_ input: Action, mark: UInt64?, sender: StepSender?) {
    var action = input
    if hasMiddlewares {
      guard
        let intercepted = middlewares.intercept(action, state: storage.unsafeValue.pointee.state)
      else {
        return
      }
      action = intercepted
    }
    if let step {
      step(action, sender, processingReplay.load(ordering: .relaxed)) { input, reducer in
        apply(input, mark: mark, reducer: reducer)
      }
    } else {
      apply(action, mark: mark, reducer: reducer)
    }
  }

  /// Reduces `action` in place with `reducer` on the processing thread, under the lock.
  ///
  /// Then runs the middlewares' processing and notifies the subscriptions.
  @inlinable
  func apply(_ action: Action, mark: UInt64?, reducer: (inout State, Action) -> Void) {
    let shared = storage.unsafeValue
    var stateBefore: State?
    if hasMiddlewares && middlewares.wantsStateBefore { stateBefore = shared.pointee.state }
    let description = reentrancy == .queue ? nil : "\(action)"
    storage.lock()
    if shared.pointee.closed {
      storage.unlock()
      return
    }
    if description != nil { shared.pointee.current = description }
    let probe = shared.pointee.probe
    // Only with a probe (in tests) is the state copied before the reducer.
    let probedState = probe.map { _ in shared.pointee.state }
    reducing.store(true, ordering: .relaxed)
    reducer(&shared.pointee.state, action)
    reducing.store(false, ordering: .relaxed)
    shared.pointee.sequence &+= 1
    let sequence = shared.pointee.sequence
    let subscriptions = shared.pointee.subscriptions
    let hasParked = !shared.pointee.parked.isEmpty
    storage.unlock()

    if let probe, let probedState {
      probe.reduced(action, mark, probedState, shared.pointee.state)
    }
    if hasMiddlewares {
      let record = MiddlewareRecord(
        input: action,
        stateBefore: stateBefore,
        state: shared.pointee.state,
        sequence: sequence,
        time: scheduler.now,
        dispatcher: dispatcher
      )
      middlewares.process(record)
    }
    notify(subscriptions)
    if hasParked { runParkedCommands() }
  }

  /// Runs `body` with the reduce window open on this thread (see `Store.withReduceWindow`).
  @inlinable
  func withReduceWindow(_ body: () -> Void) {
    let outer = reduceWindowThread.exchange(currentThreadIdentity(), ordering: .relaxed)
    body()
    reduceWindowThread.store(outer, ordering: .relaxed)
  }

  /// Reduces `input` now if this thread has the reduce window open; `false` if it has not.
  @inlinable
  func reduceNowIfWindowOpen(_ input: Action) -> Bool {
    guard reduceWindowThread.load(ordering: .relaxed) == currentThreadIdentity() else {
      return false
    }
    apply(input, mark: nil, reducer: reducer)
    return true
  }

  @inlinable
  func notify(_ subscriptions: [SubscriptionBox<State>]) {
    guard !subscriptions.isEmpty else { return }
    let shared = storage.unsafeValue
    // Read once: each read through the pointer is a copy, which retains the state's storage
    // (two atomic operations per subscriber, most of W2's cost with a selector per subscriber).
    // Only this thread, the one processing, changes the state, and not before this returns.
    let state = shared.pointee.state
    var orphans = false
    for box in subscriptions {
      if box.isOrphaned {
        orphans = true
        continue
      }
      if box.isActive { box.notify(state) }
    }
    if orphans {
      storage.withLock { shared in
        shared.subscriptions.removeAll { box in
          guard box.isOrphaned else { return false }
          box.cancel()
          return true
        }
      }
    }
  }

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
          group(for: path).join(entry, at: index, state: storage.unsafeValue.pointee.state)
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
    var replaced: SubscriptionBox<State>?
    let attached = storage.withLock { shared -> Bool in
      guard !shared.closed, box.isActive else { return false }
      if let owner = box.owner,
        let index = shared.subscriptions.firstIndex(where: { $0.owner == owner })
      {
        replaced = shared.subscriptions.remove(at: index)
      }
      shared.subscriptions.append(box)
      return true
    }
    replaced?.cancel()
    if attached {
      box.notifyInitial(storage.unsafeValue.pointee.state)
    } else {
      box.cancel()
    }
  }

  @usableFromInline
  func detach(_ box: SubscriptionBox<State>) {
    guard box.cancel() else { return }
    storage.withLock { shared in
      shared.subscriptions.removeAll { $0 === box }
    }
  }

  /// Ends every subscription serving `owner`.
  func detach(owner: ObjectIdentifier) {
    let removed = storage.withLock { shared -> [SubscriptionBox<State>] in
      var removed: [SubscriptionBox<State>] = []
      shared.subscriptions.removeAll { box in
        guard box.owner == owner else { return false }
        removed.append(box)
        return true
      }
      return removed
    }
    for box in removed { box.cancel() }
  }

  var subscriptionCount: Int { storage.withLock { $0.subscriptions.count } }
}
