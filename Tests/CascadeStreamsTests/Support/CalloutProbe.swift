import CascadeStreams
import CascadeTestSupport
import Synchronization

/// Watches one observer's callouts of `(thread, index)` values: whether two ever overlapped,
/// whether each thread's values arrived in the order it sent them, and how many arrived.
final class CalloutProbe: Sendable {
  let overlaps = Counter()
  let orderViolations = Counter()
  let received = Counter()
  private let inside = Atomic<Int>(0)
  /// Only touched inside the callouts; `overlaps` proves they are serialized.
  private let lastIndex: LockedValue<[Int]>

  init(threads: Int) {
    lastIndex = LockedValue([Int](repeating: -1, count: threads))
  }

  /// The callout to observe with.
  func observe(_ value: (thread: Int, index: Int)) {
    if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
    let inOrder = lastIndex.withLock { last -> Bool in
      defer { last[value.thread] = value.index }
      return value.index == last[value.thread] + 1
    }
    if !inOrder { orderViolations.increment() }
    received.increment()
    inside.subtract(1, ordering: .acquiringAndReleasing)
  }
}
