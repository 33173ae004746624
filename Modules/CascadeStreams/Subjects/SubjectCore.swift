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
final class SubjectCore<Element: Sendable, Failure: Error>: @unchecked Sendable {
  // Safety: every stored var is read and written only with `lock` held.
  final class Registration: @unchecked Sendable {
    // Safety: `replayBuffer` and `isReplaying` are guarded by the owning core's lock; `observer`
    // and `lifetime` are immutable Sendable references.
    let observer: AnyObserver<Element, Failure>
    let lifetime = Lifetime()
    var isReplaying = true
    var replayBuffer: [Event<Element, Failure>] = []

    init(_ observer: AnyObserver<Element, Failure>) {
      self.observer = observer
    }

    /// Ends the registration; the one call that ends it releases its resource count.
    func finish() {
      if lifetime.end() { Resources.decrement() }
    }

    func deliver(_ event: Event<Element, Failure>) {
      guard !lifetime.hasEnded else { return }
      observer.on(event)
    }
  }

  private let lock = Lock()
  private let capacity: Int
  private var registrations: [Registration] = []
  private var replayingCount = 0
  private var buffer = FIFO<Element>()
  private var last: Element?
  private var terminal: Event<Element, Failure>?
  private var queue = FIFO<Event<Element, Failure>>()
  private var emitting = false

  /// - Parameter replay: How many of the latest values a new subscriber receives first.
  init(replay: Int, initial: Element? = nil) {
    precondition(replay >= 0, "replay must not be negative")
    capacity = replay
    if let initial, replay > 0 { buffer.append(initial) }
    last = initial
  }

  var latest: Element? { lock.withLock { last } }

  var terminalEvent: Event<Element, Failure>? { lock.withLock { terminal } }

  var hasObservers: Bool { lock.withLock { !registrations.isEmpty } }

  // MARK: Sending

  func on(_ event: Event<Element, Failure>) {
    lock.lock()
    if emitting {
      if terminal == nil { queue.append(event) }
      lock.unlock()
      return
    }
    emitting = true
    var next = event
    while true {
      let targets = prepare(next)
      lock.unlock()
      if let targets {
        for registration in targets { registration.deliver(next) }
        if next.isTerminal { for registration in targets { registration.finish() } }
      }
      lock.lock()
      guard let queued = queue.popFirst() else {
        emitting = false
        lock.unlock()
        return
      }
      next = queued
    }
  }

  /// Records `event` (replay buffer, terminal state) and returns the observers to deliver it to
  /// now; observers still replaying get it in their own buffer instead. Called with `lock` held.
  private func prepare(_ event: Event<Element, Failure>) -> [Registration]? {
    guard terminal == nil else { return nil }
    switch event {
    case .next(let element):
      last = element
      if capacity > 0 {
        buffer.append(element)
        if buffer.count > capacity { _ = buffer.popFirst() }
      }
    case .error, .completed:
      terminal = event
    }
    var targets = registrations
    if event.isTerminal { registrations = [] }
    if replayingCount > 0 {
      targets.removeAll { registration in
        guard registration.isReplaying else { return false }
        registration.replayBuffer.append(event)
        return true
      }
    }
    return targets
  }

  // MARK: Subscribing

  func subscribe(_ observer: AnyObserver<Element, Failure>) -> any Disposable {
    let registration = Registration(observer)
    lock.lock()
    var replay: [Event<Element, Failure>] = []
    var copy = buffer
    while let element = copy.popFirst() { replay.append(.next(element)) }
    if let terminal {
      lock.unlock()
      replay.append(terminal)
      for event in replay { observer.on(event) }
      return Disposables.empty
    }
    registrations.append(registration)
    replayingCount += 1
    Resources.increment()
    lock.unlock()

    let subscription = Disposables.create { [weak self] in
      self?.remove(registration)
    }
    var pending = replay
    while true {
      for event in pending { registration.deliver(event) }
      lock.lock()
      if !registration.isReplaying {
        lock.unlock()
        break
      }
      if registration.replayBuffer.isEmpty {
        registration.isReplaying = false
        replayingCount -= 1
        lock.unlock()
        break
      }
      pending = registration.replayBuffer
      registration.replayBuffer = []
      lock.unlock()
    }
    if pending.last?.isTerminal == true { subscription.dispose() }
    return subscription
  }

  private func remove(_ registration: Registration) {
    registration.finish()
    lock.withLock {
      if let index = registrations.firstIndex(where: { $0 === registration }) {
        registrations.remove(at: index)
        if registration.isReplaying {
          registration.isReplaying = false
          registration.replayBuffer = []
          replayingCount -= 1
        }
      } else if registration.isReplaying {
        registration.isReplaying = false
        registration.replayBuffer = []
        replayingCount -= 1
      }
    }
  }
}
