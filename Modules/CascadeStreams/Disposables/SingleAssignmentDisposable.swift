import Synchronization

/// A disposable that holds one other disposable, assigned once, possibly after it was disposed.
///
/// If ``dispose()`` comes first, the disposable assigned later is disposed at once. Either way the
/// held disposable is disposed exactly once, however `setDisposable(_:)` and `dispose()` race.
public final class SingleAssignmentDisposable: Cancelable {
  private enum State {
    case empty
    case assigned(any Disposable)
    case disposed
  }

  private let state = LockedValue(State.empty)
  private let disposedFlag = Atomic<Bool>(false)

  /// Creates an empty disposable.
  public init() {}

  /// Whether ``dispose()`` has been called.
  public var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

  /// Assigns the held disposable.
  ///
  /// Assigning twice is a programming error.
  public func setDisposable(_ disposable: any Disposable) {
    let disposeNow = state.withLock { state -> Bool in
      switch state {
      case .empty:
        state = .assigned(disposable)
        return false
      case .disposed:
        return true
      case .assigned:
        preconditionFailure("SingleAssignmentDisposable was assigned twice")
      }
    }
    if disposeNow { disposable.dispose() }
  }

  /// Disposes the held disposable, now or when it is assigned.
  public func dispose() {
    disposedFlag.store(true, ordering: .releasing)
    let held = state.withLock { state -> (any Disposable)? in
      defer { state = .disposed }
      if case .assigned(let disposable) = state { return disposable }
      return nil
    }
    held?.dispose()
  }
}
