import Synchronization

/// A count of live stream resources, for tests that prove nothing leaked.
///
/// Every subscription, sink, subject observer registration, scheduled item, command task and
/// effect that Cascade creates counts itself here while it is alive, and stops counting when it
/// is disposed, finishes or is released. Two counts are kept:
///
/// - ``total``, for the whole process;
/// - the count of a ``ResourceAccount``: a resource is charged to the account that is *current*
///   where it is created (bound with ``ResourceAccount/withCurrent(_:)-(()->T)``, which task-local
///   values carry into child and unstructured tasks, and Cascade's schedulers carry into the work
///   they run), and remembers it until it is released. An account counts one test's resources
///   only, whatever else runs in parallel: CascadeTesting's `checksResources` trait gives each
///   test its own.
///
/// The counters are always compiled in, in debug and release builds alike: one relaxed atomic
/// increment per subscription, never per element, and one more while any account exists.
///
/// ```swift
/// let account = ResourceAccount()
/// account.withCurrent {
///   let subscription = Observable.just(1).subscribe { _ in }
///   subscription.dispose()
/// }
/// assert(account.live == 0)
/// ```
public enum Resources: Sendable {
  private static let counter = Atomic<Int>(0)
  /// Whether an account was ever created in this process: until then, no resource looks for one.
  private static let accountsInUse = Atomic<Bool>(false)

  /// The account resources created here are charged to.
  @TaskLocal static var current: ResourceAccount?

  /// The number of live stream resources in the process.
  public static var total: Int { counter.load(ordering: .acquiring) }

  /// What a live resource was charged to; give it back to ``decrement(_:)`` when it is released.
  public struct Token: Sendable {
    let account: ResourceAccount?

    /// The account charged, if any.
    public var chargedAccount: ResourceAccount? { account }
  }

  /// Counts one more live resource, charged to the current account if there is one.
  ///
  /// Call ``decrement(_:)`` with the token exactly once when it is released. Modules built on
  /// CascadeStreams use this for their own subscriptions and effects, so that one counter covers
  /// the whole library.
  @inline(__always)
  public static func increment() -> Token {
    counter.add(1, ordering: .relaxed)
    guard accountsInUse.load(ordering: .relaxed) else { return Token(account: nil) }
    return charge(current)
  }

  /// Counts one more live resource, charged to `account` (for resources that an object creates
  /// on behalf of the account it was made under, on whatever thread).
  @inline(__always)
  public static func increment(charging account: ResourceAccount?) -> Token {
    counter.add(1, ordering: .relaxed)
    return charge(account)
  }

  /// Counts one live resource fewer, on the account `token` was charged to.
  @inline(__always)
  public static func decrement(_ token: Token) {
    counter.subtract(1, ordering: .releasing)
    token.account?.release()
  }

  /// Counts one live resource fewer, on `account`: the counterpart of
  /// ``increment(charging:)``.
  @inline(__always)
  public static func decrement(charging account: ResourceAccount?) {
    counter.subtract(1, ordering: .releasing)
    account?.release()
  }

  /// The current account, or `nil` without looking when no account was ever created.
  @inline(__always)
  public static var currentAccount: ResourceAccount? {
    accountsInUse.load(ordering: .relaxed) ? current : nil
  }

  private static func charge(_ account: ResourceAccount?) -> Token {
    account?.retain()
    return Token(account: account)
  }

  static func accountCreated() {
    accountsInUse.store(true, ordering: .relaxed)
  }
}

/// One test's share of the live stream resources (see ``Resources``).
///
/// Resources are charged to the account current where they are created; the account's ``live``
/// count goes back to zero when all of them are released, and ``waitUntilEmpty(timeout:)`` wakes
/// at that moment.
public final class ResourceAccount: Sendable {
  private let count = Atomic<Int>(0)
  private let waiters = LockedValue<[Int: CheckedContinuation<Bool, Never>]>([:])
  private let nextWaiter = Atomic<Int>(0)

  /// Creates an empty account.
  public init() {
    Resources.accountCreated()
  }

  /// The number of live resources charged to this account.
  public var live: Int { count.load(ordering: .acquiring) }

  /// The account current here, if any.
  public static var current: ResourceAccount? { Resources.currentAccount }

  /// Runs `body` with this account current: resources it creates, and those created by the
  /// tasks and scheduled work it starts, are charged to it.
  public func withCurrent<T>(_ body: () throws -> T) rethrows -> T {
    try Resources.$current.withValue(self, operation: body)
  }

  /// Runs `body` with this account current (see ``withCurrent(_:)-(()->T)``).
  public func withCurrent<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
  ) async rethrows -> T {
    try await Resources.$current.withValue(self, operation: body)
  }

  /// Waits until no resource is charged to the account; `false` if some still are after
  /// `timeout`.
  ///
  /// It wakes when the last resource is released, so the timeout only bounds how long a leak
  /// takes to be reported.
  public func waitUntilEmpty(timeout: Duration) async -> Bool {
    if live == 0 { return true }
    let id = nextWaiter.add(1, ordering: .relaxed).newValue
    let timer = LockedValue<Task<Void, Never>?>(nil)
    defer { timer.withLock { $0 }?.cancel() }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let empty = waiters.withLock { waiters -> Bool in
        if live == 0 { return true }
        waiters[id] = continuation
        return false
      }
      if empty {
        continuation.resume(returning: true)
        return
      }
      // Registered first, so the timer always finds the waiter unless it was woken.
      timer.withLock { timer in
        timer = Task { [self] in
          try? await Task.sleep(for: timeout)
          waiters.withLock { $0.removeValue(forKey: id) }?.resume(returning: live == 0)
        }
      }
    }
  }

  func retain() {
    count.add(1, ordering: .relaxed)
  }

  func release() {
    guard count.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
    let woken = waiters.withLock { waiters in
      // Checked again under the lock: a waiter registers only while the count is not zero.
      guard count.load(ordering: .acquiring) == 0 else {
        return [CheckedContinuation<Bool, Never>]()
      }
      defer { waiters = [:] }
      return Array(waiters.values)
    }
    for waiter in woken { waiter.resume(returning: true) }
  }
}
