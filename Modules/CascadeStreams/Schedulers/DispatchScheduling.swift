import Dispatch
import Synchronization

/// One unit of work submitted to a dispatch queue: runs at most once, counts as a live resource
/// until it runs or is cancelled.
final class DispatchScheduledItem: Cancelable {
  private let state = Atomic<Bool>(false)
  private let action: @Sendable () -> Void
  private let resource: Resources.Token

  init(_ action: @escaping @Sendable () -> Void) {
    self.action = action
    resource = Resources.increment()
  }

  var isDisposed: Bool { state.load(ordering: .acquiring) }

  func run() {
    guard !state.exchange(true, ordering: .acquiringAndReleasing) else { return }
    Resources.decrement(resource)
    // The work runs under the account it was scheduled under, so that what it creates on the
    // queue's thread is charged to the same test.
    if let account = resource.account {
      account.withCurrent(action)
    } else {
      action()
    }
  }

  func dispose() {
    cancel()
  }

  /// Cancels the item; returns `true` if it had neither run nor been cancelled before.
  @discardableResult
  func cancel() -> Bool {
    guard !state.exchange(true, ordering: .acquiringAndReleasing) else { return false }
    Resources.decrement(resource)
    return true
  }
}

extension DispatchQueue {
  /// Runs `action` on the queue, as a unit of work that can be cancelled until it starts.
  ///
  /// (Not named `schedule`: that is the queue's ``Scheduler`` conformance, which calls this.)
  func enqueue(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    let item = DispatchScheduledItem(action)
    async { item.run() }
    return item
  }

  /// Runs `action` on the queue after `delay`, on a timer that cancelling releases at once.
  func enqueue(
    after delay: Duration,
    _ action: @escaping @Sendable () -> Void
  )
    -> any Disposable
  {
    // A delay of 100 years or more never comes: nothing is scheduled (see `longestDelay`).
    guard let nanoseconds = delay.schedulingNanoseconds else {
      return DispatchScheduledItem(action)
    }
    return DispatchTimerItem(on: self, after: nanoseconds, action)
  }
}

/// Work scheduled after a delay, on a dispatch timer source: cancelling it cancels the source,
/// which releases the work at once.
///
/// (`asyncAfter` would keep a cancelled item, and what its work captured, queued until its
/// deadline: `buffer(timeSpan:count:scheduler:)` with an hour's time span, which schedules a
/// timer per buffer and cancels it when the buffer fills, held a gigabyte after 2 million
/// buffers; W6e.)
final class DispatchTimerItem: Cancelable, @unchecked Sendable {
  // Safety: `timer` is immutable and a dispatch source, which may be cancelled from any thread;
  // `action` is behind its lock; `resource` is immutable.
  private let timer: any DispatchSourceTimer
  /// The work, until it runs or is cancelled: cancelling releases it (and what it captured) at
  /// once, whenever dispatch gets to release the source's handler.
  private let action: LockedValue<(@Sendable () -> Void)?>
  private let resource: Resources.Token

  init(on queue: DispatchQueue, after nanoseconds: Int, _ action: @escaping @Sendable () -> Void) {
    self.action = LockedValue(action)
    resource = Resources.increment()
    timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + .nanoseconds(nanoseconds))
    // The handler keeps the item (not its work, once cancelled) until dispatch releases it.
    timer.setEventHandler { self.run() }
    timer.activate()
  }

  var isDisposed: Bool { action.withLock { $0 == nil } }

  func run() {
    guard let work = take() else { return }
    timer.cancel()
    Resources.decrement(resource)
    if let account = resource.account {
      account.withCurrent(work)
    } else {
      work()
    }
  }

  func dispose() {
    cancel()
  }

  /// Cancels the work; returns `true` if it had neither run nor been cancelled before.
  @discardableResult
  func cancel() -> Bool {
    guard take() != nil else { return false }
    timer.cancel()
    Resources.decrement(resource)
    return true
  }

  /// The work, taken out: `nil` once it ran or was cancelled.
  private func take() -> (@Sendable () -> Void)? {
    action.withLock { action in
      defer { action = nil }
      return action
    }
  }
}
