public import Synchronization

/// A flag that goes from false to true once, readable from any thread.
@usableFromInline
final class LockedFlag: Sendable {
  @usableFromInline let flag = Atomic<Bool>(false)

  @usableFromInline init() {}

  @inlinable var value: Bool { flag.load(ordering: .acquiring) }

  @usableFromInline func set() { flag.store(true, ordering: .releasing) }
}
