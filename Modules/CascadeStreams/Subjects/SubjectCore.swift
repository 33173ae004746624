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
@usableFromInline
final class SubjectCore<Element: Sendable, Failure: Error>: @unchecked Sendable {
  // Safety: every stored var is read and written only with `lock` held.
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
    @usableFromInline var emitting = false

    @usableFromInline init() {}
  }

  @usableFromInline let storage = LockedValue(State())
  @usableFromInline let capacity: Int

  /// - Parameters:
  ///   - replay: How many of the latest values a new subscriber receives first.
  ///   - initial: The current value of a behavior subject.
  init(replay: Int, initial: Element? = nil) {
    precondition(replay >= 0, "replay must not be negative")
    capacity = replay
    storage.withLock { state in
      if let initial, replay > 0 { state.buffer.append(initial) }
    }
  }

  deinit {
    // Released while subscribed: its registrations can never deliver again, so they end now
    // (disposing one of their subscriptions later finds the subject gone and does nothing).
    for registration in storage.withLock({ $0.registrations }) { registration.finish() }
  }

  /// The latest value kept for replay (a behavior subject's current value).
  var latest: Element? { storage.withLock { $0.buffer.last } }

  var hasObservers: Bool { storage.withLock { !$0.registrations.isEmpty } }

  // MARK: Sending

  @inlinable
  func on(_ event: StreamEvent<Element, Failure>) {
    let state = storage.unsafeValue
    storage.lock()
    if state.pointee.emitting {
      if state.pointee.terminal == nil { state.pointee.queue.append(event) }
      storage.unlock()
      return
    }
    state.pointee.emitting = true
    var next = event
    while true {
      let targets = Self.prepare(next, in: &state.pointee, capacity: capacity)
      storage.unlock()
      if let targets {
        for registration in targets { registration.deliver(next) }
        if next.isTerminal { for registration in targets { registration.finish() } }
      }
      storage.lock()
      guard let queued = state.pointee.queue.popFirst() else {
        state.pointee.emitting = false
        storage.unlock()
        return
      }
      next = queued
    }
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
    storage.withLock { state in
      if let index = state.registrations.firstIndex(where: { $0 === registration }) {
        state.registrations.remove(at: index)
      }
      if registration.isReplaying {
        registration.isReplaying = false
        registration.replayBuffer = []
        state.replayingCount -= 1
      }
    }
  }
}
