import Synchronization

/// A process-wide count of live stream resources, for tests that prove nothing leaked.
///
/// Every subscription, sink, subject observer registration and scheduled item that Cascade
/// creates counts itself here while it is alive, and stops counting when it is disposed, finishes
/// or is released. A test records ``total`` before it starts and checks that the count comes back
/// to the same value when it ends; CascadeTesting's `checksResources` trait does it for you.
///
/// The counter is always compiled in, in debug and release builds alike: one relaxed atomic
/// increment per subscription, never per element.
///
/// ```swift
/// let before = Resources.total
/// let subscription = Observable.just(1).subscribe { _ in }
/// subscription.dispose()
/// assert(Resources.total == before)
/// ```
public enum Resources: Sendable {
  private static let counter = Atomic<Int>(0)

  /// The number of live stream resources in the process.
  public static var total: Int { counter.load(ordering: .acquiring) }

  /// Counts one more live resource.
  ///
  /// Call ``decrement()`` exactly once when it is released.
  ///
  /// Modules built on CascadeStreams use this for their own subscriptions and effects, so that one
  /// counter covers the whole library.
  @inline(__always)
  public static func increment() {
    counter.add(1, ordering: .relaxed)
  }

  /// Counts one live resource fewer.
  @inline(__always)
  public static func decrement() {
    counter.subtract(1, ordering: .releasing)
  }
}
