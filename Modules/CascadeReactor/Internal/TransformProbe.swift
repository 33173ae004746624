import CascadeStore
import CascadeStreams
import Synchronization

/// Tells a reactor's start whether a `transform` hook it calls is the default one, which returns
/// its input unchanged (so that the reactor can skip the stream and send straight to its store).
///
/// The defaults (of ``Reactor`` and ``BaseReactor``) note themselves in the probe bound for the
/// call. Looking at the returned stream instead cannot tell: element-wise operators such as `map`
/// and `do` hand their subscriber's lifetime straight to their source.
@usableFromInline
final class TransformProbe: Sendable {
  @TaskLocal static var current: TransformProbe?

  private let reactor: ObjectIdentifier
  private let noted = Atomic<Bool>(false)

  private init(reactor: ObjectIdentifier) {
    self.reactor = reactor
  }

  /// Calls `transform`; returns its result and whether it was `reactor`'s default hook.
  @usableFromInline
  static func run<T>(for reactor: AnyObject, _ transform: () -> T) -> (T, isDefault: Bool) {
    let probe = TransformProbe(reactor: ObjectIdentifier(reactor))
    let result = $current.withValue(probe) { transform() }
    return (result, probe.noted.load(ordering: .relaxed))
  }

  /// Called by the default hooks of `reactor`.
  @usableFromInline
  static func noteDefault(of reactor: AnyObject) {
    guard let probe = current, probe.reactor == ObjectIdentifier(reactor) else { return }
    probe.noted.store(true, ordering: .relaxed)
  }
}

/// A weak reference to a reactor, for the store its core runs (which the reactor owns).
@usableFromInline
final class WeakReactor<R: Reactor>: Sendable {
  @usableFromInline weak let reactor: R?

  @inlinable
  init(_ reactor: R) {
    self.reactor = reactor
  }
}
