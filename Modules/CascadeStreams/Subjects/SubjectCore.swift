public import Synchronization

/// The shared machinery of the subjects: a list of observers, a replay buffer and a terminal
/// event, with delivery serialized and never under the lock.
///
/// Senders: the first sender to find the subject idle becomes the *emitter* and delivers; an event
/// sent while another is being delivered, from another thread or reentrantly from inside an
/// observer, is appended to an unbounded FIFO and delivered by the emitter, in order, after the
/// current callout returns. Senders never block and nothing is dropped before termination.
///
/// Subscribers: a new observer receives the replay buffer on the subscribing thread, outside the
/// lock; events sent meanwhile are buffered for that observer and delivered after the replay, so
/// it sees every event exactly once and in order, and the subscribing thread never runs other
/// observers' callbacks (so a subscriber holding a lock of its own cannot deadlock with them).
///
/// **The fast path.** Who emits is decided by an atomic count, ``inFlight``: the events accepted
/// and not yet delivered, the one being delivered included. A sender that moves it from 0 to 1
/// is the emitter and delivers its event at once, without the lock; a sender that finds it above
/// 0 appends its event to the queue and adds one, under the lock (and, should the count have
/// dropped to 0 meanwhile, becomes the emitter and delivers from the queue). The emitter takes
/// one off the count after each event, and takes the next event from the queue while the count
/// stays above 0. The count's read-modify-writes acquire and release, so one emitter's work
/// happens before the next one's.
///
/// A value goes to the observers of ``snapshot``, which only the emitter touches: a copy of the
/// registrations made under the lock, valid while ``version`` is unchanged. Subscribing, the end
/// of a subscriber's replay and removing bump the version under the lock, and the next value
/// takes the lock once to copy the registrations again. Terminal events, the values of a
/// subject that replays (its buffer changes with each), and values sent while a subscriber is
/// still replaying take the lock, as before. A `PublishSubject`'s value with its observers
/// settled therefore costs two atomic read-modify-writes and an atomic load, and no lock
/// (W6b in Tooling/Benchmarks/README.md: 439 instructions per element with two lock
/// acquisitions and a copy of the registrations, before).
///
/// A registration removed while idle is dropped from the snapshot at once (the remover takes
/// the emitter's turn for that, under the lock, where nothing can be queued meanwhile, so it
/// never delivers); removed during an emission, it is dropped when that emission ends; removed
/// in the instant the emitter hands back its turn, it stays referenced (never delivered to: its
/// lifetime has ended) until the next event or the subject's release.
@usableFromInline
final class SubjectCore<Element: Sendable, Failure: Error>: @unchecked Sendable {
  // Safety: `storage`'s value is read and written only with its lock held; `snapshot.pointee`
  // only by the emitter, the one thread that moved `inFlight` from 0 (see the type's
  // documentation), whose turns are ordered by `inFlight`'s acquiring and releasing
  // read-modify-writes; `inFlight` and `version` are atomics. SubjectConcurrencyTests run
  // under ThreadSanitizer in CI.
  @usableFromInline
  final class Registration: @unchecked Sendable {
    // Safety: `replayBuffer` and `isReplaying` are guarded by the owning core's lock; `observer`
    // and `lifetime` are immutable Sendable references.
    @usableFromInline let observer: AnyObserver<Element, Failure>
    @usableFromInline let lifetime = Lifetime()
    @usableFromInline var isReplaying = true
    @usableFromInline var replayBuffer: [StreamEvent<Element, Failure>] = []
    @usableFromInline let resource: Resources.Token

    init(_ observer: AnyObserver<Element, Failure>) {
      self.observer = observer
      resource = Resources.increment()
    }

    /// Ends the registration; the one call that ends it releases its resource count.
    @usableFromInline
    func finish() {
      if lifetime.end() { Resources.decrement(resource) }
    }

    @inlinable
    func deliver(_ event: StreamEvent<Element, Failure>) {
      guard !lifetime.hasEnded else { return }
      observer.on(event)
    }
  }

  /// The mutable state, guarded by the lock of `storage`.
  @usableFromInline
  struct State: Sendable {
    @usableFromInline var registrations: [Registration] = []
    @usableFromInline var replayingCount = 0
    /// The values kept for replay, at most `capacity`: nothing else of what was sent is kept.
    @usableFromInline var buffer = FIFO<Element>()
    @usableFromInline var terminal: StreamEvent<Element, Failure>?
    @usableFromInline var queue = FIFO<StreamEvent<Element, Failure>>()

    @usableFromInline init() {}
  }

  /// The observers a value goes to, as the emitter last copied them, and the ``version`` they
  /// were copied at (`UInt.max`: no valid copy).
  @usableFromInline
  struct Snapshot {
    /// The registrations, kept alive as long as the snapshot holds them.
    @usableFromInline var targets: [Registration] = []
    /// The same registrations, unretained: what the emitter's loop reads (see `deliver`).
    @usableFromInline var unretained = UnsafeMutableBufferPointer<Unmanaged<Registration>>(
      start: nil,
      count: 0
    )
    @usableFromInline var version = UInt.max

    @usableFromInline init() {}

    /// A snapshot holding `targets`, copied at `version`.
    @usableFromInline
    init(targets: [Registration], version: UInt) {
      unretained =
        targets.isEmpty ? .init(start: nil, count: 0) : .allocate(capacity: targets.count)
      for (index, registration) in targets.enumerated() {
        unretained.initializeElement(at: index, to: Unmanaged.passUnretained(registration))
      }
      self.targets = targets
      self.version = version
    }

    /// Holds nothing, and is not valid.
    @usableFromInline
    mutating func clear() {
      unretained.deallocate()
      unretained = .init(start: nil, count: 0)
      targets = []
      version = .max
    }
  }

  @usableFromInline let storage = LockedValue(State())
  @usableFromInline let capacity: Int
  /// The events accepted and not yet delivered, the one being delivered included; 0 when idle.
  @usableFromInline let inFlight = Atomic<Int>(0)
  /// Bumped, under the lock, whenever the observers a value goes to may have changed.
  @usableFromInline let version = Atomic<UInt>(0)
  /// The emitter's copy of the observers; only the emitter reads or writes it.
  @usableFromInline let snapshot: UnsafeMutablePointer<Snapshot>

  /// - Parameters:
  ///   - replay: How many of the latest values a new subscriber receives first.
  ///   - initial: The current value of a behavior subject.
  init(replay: Int, initial: Element? = nil) {
    precondition(replay >= 0, "replay must not be negative")
    capacity = replay
    snapshot = .allocate(capacity: 1)
    snapshot.initialize(to: Snapshot())
    storage.withLock { state in
      if let initial, replay > 0 { state.buffer.append(initial) }
    }
  }

  deinit {
    // Released while subscribed: its registrations can never deliver again, so they end now
    // (disposing one of their subscriptions later finds the subject gone and does nothing).
    for registration in storage.withLock({ $0.registrations }) { registration.finish() }
    snapshot.pointee.clear()
    snapshot.deinitialize(count: 1)
    snapshot.deallocate()
  }

  /// The latest value kept for replay (a behavior subject's current value).
  var latest: Element? { storage.withLock { $0.buffer.last } }

  var hasObservers: Bool { storage.withLock { !$0.registrations.isEmpty } }

  // MARK: Sending

  /// Sends `event`: delivers it now if the subject is idle, or queues it for the emitter.
  ///
  /// The fast path, inlined into the sender: the subject idle, a value, the snapshot valid, and
  /// nothing queued or changed during the callouts.
  @inlinable
  @inline(__always)
  func on(_ event: StreamEvent<Element, Failure>) {
    guard inFlight.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged else {
      enqueue(event)
      return
    }
    guard case .next = event, snapshot.pointee.version == version.load(ordering: .acquiring)
    else {
      emit(event)
      return
    }
    deliverToSnapshot(event)
    if snapshot.pointee.version == version.load(ordering: .relaxed),
      inFlight.compareExchange(expected: 1, desired: 0, ordering: .releasing).exchanged
    {
      return
    }
    finishEvent()
  }

  /// Queues `event` for the emitter; becomes the emitter if the subject went idle meanwhile.
  @inlinable
  func enqueue(_ event: StreamEvent<Element, Failure>) {
    let state = storage.unsafeValue
    storage.lock()
    guard state.pointee.terminal == nil else {
      storage.unlock()
      return
    }
    state.pointee.queue.append(event)
    // Counted under the lock: a removal, which takes the emitter's turn under the lock, never
    // finds an event queued but not counted (that it would have to deliver).
    let idle = inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0
    storage.unlock()
    if idle { emit(dequeue()) }
  }

  /// The next queued event; the caller is the emitter and the count says there is one.
  @inlinable
  func dequeue() -> StreamEvent<Element, Failure> {
    storage.lock()
    defer { storage.unlock() }
    return storage.unsafeValue.pointee.queue.removeFirst()
  }

  /// Delivers `event`, then the queued events, until the count of events in flight drops to 0.
  ///
  /// Called by the emitter only.
  @inlinable
  func emit(_ event: StreamEvent<Element, Failure>) {
    deliver(event)
    finishEvent()
  }

  /// Ends the delivery of an event: gives the emitter's turn back, or delivers the next queued
  /// event and so on until the count of events in flight drops to 0.
  ///
  /// Called by the emitter only.
  @inlinable
  func finishEvent() {
    while true {
      // A registration removed during the callouts: drop the copy that keeps it alive.
      if snapshot.pointee.version != .max,
        snapshot.pointee.version != version.load(ordering: .relaxed)
      {
        snapshot.pointee.clear()
      }
      if inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
      deliver(dequeue())
    }
  }

  /// Delivers one event to its observers; called by the emitter only.
  @inlinable
  func deliver(_ event: StreamEvent<Element, Failure>) {
    if case .next = event, snapshot.pointee.version == version.load(ordering: .acquiring) {
      deliverToSnapshot(event)
    } else {
      deliverUnderLock(event)
    }
  }

  /// Delivers a value to the observers of the snapshot, which must be valid; called by the
  /// emitter only.
  @inlinable
  @inline(__always)
  func deliverToSnapshot(_ event: StreamEvent<Element, Failure>) {
    let registrations = snapshot.pointee.unretained
    for index in registrations.indices {
      // Safety: `snapshot.pointee.targets` holds each registration strongly, and only the
      // emitter, this thread, replaces or clears the snapshot, never during this loop: a send
      // from inside a callout is queued, and a removal takes the emitter's turn to clear it
      // only when no one holds that turn. So the registration outlives its callout without a
      // retain of its own (a retain and release per observer, and of the array, per value:
      // 80 of W6b's 365 instructions per element; see Tooling/Benchmarks/README.md).
      registrations[index]._withUnsafeGuaranteedRef { $0.deliver(event) }
    }
  }

  /// Records `event` and copies its observers under the lock (refreshing the emitter's
  /// snapshot), then delivers it outside the lock.
  @inlinable
  func deliverUnderLock(_ event: StreamEvent<Element, Failure>) {
    let state = storage.unsafeValue
    // The previous snapshot, released after unlocking: it may hold the last reference to a
    // removed observer, whose release may run deinitializers.
    var dropped = Snapshot()
    storage.lock()
    let targets = Self.prepare(event, in: &state.pointee, capacity: capacity)
    if capacity == 0, state.pointee.terminal == nil, state.pointee.replayingCount == 0 {
      dropped = snapshot.pointee
      snapshot.pointee = Snapshot(
        targets: state.pointee.registrations,
        version: version.load(ordering: .relaxed)
      )
    } else if snapshot.pointee.version != .max {
      dropped = snapshot.pointee
      snapshot.pointee = Snapshot()
    }
    storage.unlock()
    dropped.clear()
    guard let targets else { return }
    for registration in targets { registration.deliver(event) }
    if event.isTerminal { for registration in targets { registration.finish() } }
  }

  /// Records `event` (replay buffer, terminal state) and returns the observers to deliver it to
  /// now; observers still replaying get it in their own buffer instead.
  ///
  /// Called with the lock held.
  @inlinable
  static func prepare(
    _ event: StreamEvent<Element, Failure>,
    in state: inout State,
    capacity: Int
  ) -> [Registration]? {
    guard state.terminal == nil else { return nil }
    switch event {
    case .next(let element):
      if capacity > 0 {
        state.buffer.append(element)
        if state.buffer.count > capacity { _ = state.buffer.popFirst() }
      }
    case .error, .completed:
      state.terminal = event
    }
    var targets = state.registrations
    if event.isTerminal { state.registrations = [] }
    if state.replayingCount > 0 {
      targets.removeAll { registration in
        guard registration.isReplaying else { return false }
        registration.replayBuffer.append(event)
        return true
      }
    }
    return targets
  }

  // MARK: Subscribing

  @usableFromInline
  func subscribe(_ observer: AnyObserver<Element, Failure>) -> any Disposable {
    let registration = Registration(observer)
    let (replay, terminal) = storage.withLock { state in
      let replay = state.buffer.elements.map { StreamEvent<Element, Failure>.next($0) }
      if state.terminal == nil {
        state.registrations.append(registration)
        state.replayingCount += 1
        version.add(1, ordering: .releasing)
      }
      return (replay, state.terminal)
    }
    if let terminal {
      registration.finish()
      for event in replay + [terminal] { observer.on(event) }
      return Disposables.empty
    }

    let subscription = Disposables.create { [weak self] in
      self?.remove(registration)
    }
    var pending = replay
    var sawTerminal = false
    while true {
      for event in pending { registration.deliver(event) }
      if pending.last?.isTerminal == true { sawTerminal = true }
      let more = storage.withLock { state -> [StreamEvent<Element, Failure>]? in
        guard registration.isReplaying else { return nil }
        if registration.replayBuffer.isEmpty {
          registration.isReplaying = false
          state.replayingCount -= 1
          version.add(1, ordering: .releasing)
          return nil
        }
        defer { registration.replayBuffer = [] }
        return registration.replayBuffer
      }
      guard let more else { break }
      pending = more
    }
    if sawTerminal { subscription.dispose() }
    return subscription
  }

  private func remove(_ registration: Registration) {
    registration.finish()
    let dropped = storage.withLock { state -> Snapshot? in
      if let index = state.registrations.firstIndex(where: { $0 === registration }) {
        state.registrations.remove(at: index)
      }
      if registration.isReplaying {
        registration.isReplaying = false
        registration.replayBuffer = []
        state.replayingCount -= 1
      }
      version.add(1, ordering: .releasing)
      // Idle: take the emitter's turn to drop the snapshot that still holds the registration.
      // Under the lock no sender can queue and count an event meanwhile (they count under the
      // lock), so the turn goes back to 0 with nothing to deliver: a disposal never runs other
      // observers' callbacks (a subscriber holding a lock of its own disposes safely). While
      // someone emits, the emitter drops the snapshot after the current event.
      guard inFlight.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
      else { return nil }
      let snapshotted = snapshot.pointee
      snapshot.pointee = Snapshot()
      inFlight.store(0, ordering: .releasing)
      return snapshotted
    }
    // Released outside the lock: releasing an observer may run deinitializers.
    if var dropped { dropped.clear() }
  }

}
