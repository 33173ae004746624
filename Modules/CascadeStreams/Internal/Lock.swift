#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small mutual-exclusion lock over `pthread_mutex_t`.
///
/// ThreadSanitizer on Linux does not see `Synchronization.Mutex` and reports races on state it
/// guards correctly; it does see pthread mutexes. Every piece of shared mutable state in Cascade
/// sits behind one of these (or behind an `Atomic`). The lock is never held while user code runs.
@usableFromInline
package final class Lock: @unchecked Sendable {
  // Safety: the mutex is only touched through pthread calls, which are thread-safe by contract.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  package init() {
    mutex = .allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    #if DEBUG
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
    #endif
    let result = pthread_mutex_init(mutex, &attributes)
    precondition(result == 0, "pthread_mutex_init failed: \(result)")
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @usableFromInline
  package func lock() {
    let result = pthread_mutex_lock(mutex)
    precondition(result == 0, "pthread_mutex_lock failed: \(result)")
  }

  @usableFromInline
  package func unlock() {
    let result = pthread_mutex_unlock(mutex)
    precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
  }

  /// Runs `body` with the lock held.
  ///
  /// `body` must not call user code.
  @inlinable
  package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// A value guarded by a ``Lock``.
///
/// The value lives behind a pointer allocated once, so the critical sections pay no dynamic
/// exclusivity checks (a class's stored `var` would pay one per access).
@usableFromInline
package final class LockedValue<Value>: @unchecked Sendable {
  // Safety: `pointer.pointee` is only read or written while `lock` is held.
  @usableFromInline package let mutexLock = Lock()
  @usableFromInline let pointer: UnsafeMutablePointer<Value>

  package init(_ value: Value) {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: value)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  ///
  /// `body` must not call user code.
  @inlinable
  package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
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
