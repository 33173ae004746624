public import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The mutual-exclusion lock behind Cascade's shared mutable state: an atomic word for the
/// uncontended case, a pthread mutex and condition variable to sleep on when contended.
///
/// **What it guards.** Every piece of shared mutable state in Cascade's modules sits behind one
/// of these — directly (a `Sink`'s `lock`, `share`'s) or through ``LockedValue`` (subjects,
/// disposables, a store's engine, a reactor's runtime, feedback loops, middlewares, the test
/// schedulers) — or behind an `Atomic`.
///
/// **What runs while it is held.** Almost always only Cascade's own bookkeeping: appending to a
/// queue, flipping a flag, copying out what to act on once the lock is given up. Callouts to
/// observers, subscribers, middlewares, commands and effects happen after unlocking. The one
/// exception is a store's reducer: `StoreEngine.apply(_:mark:)` holds the engine's lock across
/// `reducer(&state, action)`, so that the reducer mutates the state in place while other threads
/// read `Store.state` consistently (a thread that sends or reads meanwhile waits for the
/// reduction in progress). Only the reducer — a reactor's `reduce(into:mutation:)` included,
/// since reactors run on the same engine — never the store's subscribers, its middlewares'
/// interception or processing, or its commands (`execute`, `canExecute(state:)`, `didExpire`).
/// A send from inside the reducer does not take the lock again: the engine recognizes the
/// processing thread and applies its `ReentrancyPolicy` (by default, queues the input). Besides,
/// keys the user provides (command ids, keyed effects and streams) are hashed and compared under
/// these locks, so their `Hashable` conformances must be plain value comparisons.
///
/// The lock is not reentrant: taking it again on the thread that holds it deadlocks.
///
/// **Why not `Synchronization.Mutex`.** ThreadSanitizer on Linux does not see it and reports
/// races on state it guards correctly; it does see atomics (acquire on lock, release on unlock)
/// and pthread calls.
///
/// **How it works.** The word is 0 when unlocked, 1 when locked, 2 when locked and a thread may be
/// sleeping (the classic futex mutex, with the condition variable standing in for the futex).
/// Locking and unlocking without contention is one atomic operation each and no call into the C
/// library, which is most of what a store pays per action: against a plain `pthread_mutex_t`
/// wrapper, a store's action costs about 25–30% fewer instructions (callgrind, W1 Store 575
/// against 761, W3 Store 798 against 988), which is why it is not one.
@usableFromInline
package final class Lock: @unchecked Sendable {
  // Safety: `word` is atomic; the mutex and condition are only touched through pthread calls,
  // which are thread-safe by contract.
  @usableFromInline let word = Atomic<UInt32>(0)
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  package init() {
    mutex = .allocate(capacity: 1)
    condition = .allocate(capacity: 1)
    var result = pthread_mutex_init(mutex, nil)
    precondition(result == 0, "pthread_mutex_init failed: \(result)")
    result = pthread_cond_init(condition, nil)
    precondition(result == 0, "pthread_cond_init failed: \(result)")
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Takes the lock, waiting for it if another thread holds it.
  @inlinable
  package func lock() {
    if word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
    lockContended()
  }

  /// Gives up the lock, waking a waiting thread if there may be one.
  @inlinable
  package func unlock() {
    if word.exchange(0, ordering: .releasing) == 2 { wakeOne() }
  }

  @usableFromInline
  func lockContended() {
    // Critical sections are short: spin a little before sleeping.
    for _ in 0..<64 {
      if word.load(ordering: .relaxed) == 0,
        word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
      {
        return
      }
    }
    pthread_mutex_lock(mutex)
    // Marking the word 2 says "someone may sleep": the holder's unlock then wakes one. Whoever
    // takes the lock this way keeps the 2, so that the next unlock wakes the next sleeper.
    while word.exchange(2, ordering: .acquiring) != 0 {
      pthread_cond_wait(condition, mutex)
    }
    pthread_mutex_unlock(mutex)
  }

  @usableFromInline
  func wakeOne() {
    pthread_mutex_lock(mutex)
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Runs `body` with the lock held, and gives the lock up however `body` ends (returning or
  /// throwing).
  ///
  /// `body` must not call user code (see the type's documentation for the one exception, the
  /// store's reducer).
  @inlinable
  package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// A value guarded by a lock that ThreadSanitizer sees: the lock behind all of Cascade's shared
/// mutable state, for yours too (a middleware's counters, an effect's cache).
///
/// ```swift
/// let seen = LockedValue<[String]>([])
/// seen.withLock { $0.append("saved") }   // from any thread
/// let all = seen.withLock { $0 }
/// ```
///
/// The lock is an atomic word for the uncontended case and a pthread mutex to sleep on when
/// contended. On Linux, ThreadSanitizer does not see `Synchronization.Mutex`'s futex, so code
/// whose concurrency tests run under `--sanitize=thread` is better served by this one.
///
/// The value must be `Sendable`: whatever a critical section copies out is used on the calling
/// thread after the lock is given up, so the lock alone cannot make a non-`Sendable` value safe
/// to share. Call no code that may take the lock again (or that you do not own) inside
/// ``withLock(_:)``: the lock is not recursive.
///
/// The value lives behind a pointer allocated once, so the critical sections pay no dynamic
/// exclusivity checks (a class's stored `var` would pay one per access). Measured on a store, whose
/// engine keeps its state here: with a stored `var` instead (and `unsafeValue` a checked
/// accessor), callgrind counts W1 Store 1,263 instructions per action against 602, Reactor 1,539
/// against 878, Feedback 1,295 against 634, W3 Store 2,190 against 803. Every concurrency test
/// that uses a store runs under ThreadSanitizer and AddressSanitizer in CI.
public final class LockedValue<Value: Sendable & ~Copyable>: @unchecked Sendable {
  // Safety: `pointer.pointee` is only read or written while `lock` is held (a noncopyable value
  // is moved in once, at `init`, and destroyed in `deinit`, when no other reference exists).
  // Under ThreadSanitizer in CI through every *ConcurrencyTests suite (stores, subjects).
  @usableFromInline package let mutexLock = Lock()
  @usableFromInline let pointer: UnsafeMutablePointer<Value>

  /// Creates the value, guarded from now on.
  public init(_ value: consuming Value) {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: value)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  /// Runs `body` with exclusive access to the value, and gives the lock up however `body` ends.
  ///
  /// The value is changed in place: what `body` did to it before throwing stays. `body` must not
  /// take this lock again, nor call code that might.
  @inlinable
  public func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
    mutexLock.lock()
    defer { mutexLock.unlock() }
    return try body(&pointer.pointee)
  }

  /// Takes the lock; pair with ``unlock()``.
  ///
  /// For critical sections that span a loop.
  @inlinable
  package func lock() { mutexLock.lock() }

  /// Releases the lock taken with ``lock()``.
  @inlinable
  package func unlock() { mutexLock.unlock() }

  /// The value, for code that already holds ``lock`` (taken with `lock.lock()`).
  @inlinable
  package var unsafeValue: UnsafeMutablePointer<Value> { pointer }
}
