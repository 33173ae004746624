public import Synchronization

/// The lifetime of a subscription, which a producer can poll to stop early.
///
/// A synchronous producer such as `Observable.from(_:)` emits everything before `subscribe`
/// returns, so the disposable it returns comes too late for a downstream ``ObservableType/take(_:)``
/// to stop it. Instead each library observer exposes its ``ObserverType/lifetime``, which ends when
/// that observer is disposed or terminated; producers check it between elements.
///
/// ```swift
/// let naturals = Observable<Int, Never>.create { observer in
///   var n = 0
///   while observer.lifetime?.hasEnded != true {
///     observer.onNext(n)
///     n += 1
///   }
///   return Disposables.empty
/// }
/// naturals.take(3).subscribe(onNext: { print($0) })  // 0, 1, 2, and the loop stops
/// ```
public final class Lifetime: Sendable {
  @usableFromInline let ended = Atomic<Bool>(false)

  /// Creates a lifetime that has not ended.
  public init() {}

  /// Whether the lifetime has ended.
  @inlinable
  public var hasEnded: Bool { ended.load(ordering: .acquiring) }

  /// Ends the lifetime; returns `true` for the one call that ended it.
  @discardableResult
  public func end() -> Bool {
    !ended.exchange(true, ordering: .acquiringAndReleasing)
  }
}
