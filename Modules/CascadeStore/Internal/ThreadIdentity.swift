#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A number identifying the calling thread, for detecting reentrant calls without a lock.
@usableFromInline
package func currentThreadIdentity() -> UInt {
  #if canImport(Darwin)
  UInt(bitPattern: pthread_self())
  #else
  UInt(pthread_self())
  #endif
}
