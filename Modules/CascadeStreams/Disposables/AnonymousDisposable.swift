import Synchronization

/// A disposable that runs a closure exactly once when first disposed.
public final class AnonymousDisposable: Cancelable {
  private let action: LockedValue<(@Sendable () -> Void)?>
  private let disposed = Atomic<Bool>(false)

  /// Creates a disposable that runs `action` on the first ``dispose()``.
  public init(_ action: @escaping @Sendable () -> Void) {
    self.action = LockedValue(action)
  }

  /// Whether ``dispose()`` has been called.
  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  /// Runs the closure if this is the first call; otherwise does nothing.
  public func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let action = action.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }
}

/// A disposable that only records that it was disposed.
///
/// Producers poll ``isDisposed`` to stop early, as `Observable.from(_:)` does between elements.
public final class BooleanDisposable: Cancelable {
  private let disposed = Atomic<Bool>(false)

  /// Creates a disposable that is not yet disposed.
  public init() {}

  /// Whether ``dispose()`` has been called.
  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  /// Marks this disposable as disposed.
  public func dispose() {
    disposed.store(true, ordering: .releasing)
  }
}
