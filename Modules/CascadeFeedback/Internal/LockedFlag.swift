import Synchronization

/// A flag that goes from false to true once, readable from any thread.
final class LockedFlag: Sendable {
  private let flag = Atomic<Bool>(false)

  var value: Bool { flag.load(ordering: .acquiring) }

  func set() { flag.store(true, ordering: .releasing) }
}
