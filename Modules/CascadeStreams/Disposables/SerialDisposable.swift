import Synchronization

/// A disposable whose held disposable can be replaced; replacing disposes the previous one.
///
/// After ``dispose()``, any disposable assigned is disposed at once. `flatMapLatest` uses one to
/// cancel the previous inner subscription.
public final class SerialDisposable: Cancelable {
  private struct State {
    var current: (any Disposable)?
    var isDisposed = false
  }

  private let state = LockedValue(State())
  private let disposedFlag = Atomic<Bool>(false)

  /// Creates an empty serial disposable.
  public init() {}

  /// Whether ``dispose()`` has been called.
  public var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

  /// Replaces the held disposable, disposing the previous one (or `disposable` itself if this
  /// serial disposable is already disposed).
  public func replace(with disposable: any Disposable) {
    let toDispose = state.withLock { state -> (any Disposable)? in
      if state.isDisposed { return disposable }
      defer { state.current = disposable }
      return state.current
    }
    toDispose?.dispose()
  }

  /// Disposes the held disposable and every one assigned later.
  public func dispose() {
    disposedFlag.store(true, ordering: .releasing)
    let current = state.withLock { state -> (any Disposable)? in
      state.isDisposed = true
      defer { state.current = nil }
      return state.current
    }
    current?.dispose()
  }
}
