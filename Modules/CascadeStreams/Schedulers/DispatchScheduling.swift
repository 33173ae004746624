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
  func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    let item = DispatchScheduledItem(action)
    async { item.run() }
    return item
  }

  func schedule(
    after delay: Duration,
    _ action: @escaping @Sendable () -> Void
  )
    -> any Disposable
  {
    let item = DispatchScheduledItem(action)
    // A delay of 100 years or more never comes: nothing is scheduled (see `longestDelay`).
    guard let nanoseconds = delay.schedulingNanoseconds else { return item }
    asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { item.run() }
    return item
  }
}
