import Synchronization

/// A group of disposables disposed together.
///
/// Disposables inserted after ``dispose()`` are disposed at once.
public final class CompositeDisposable: Cancelable {
  /// A key identifying an inserted disposable, for ``remove(for:)``.
  public struct Key: Hashable, Sendable {
    fileprivate let value: Int
  }

  private struct State {
    var disposables: [Int: any Disposable] = [:]
    var nextKey = 0
    var isDisposed = false
  }

  private let state = LockedValue(State())
  private let disposedFlag = Atomic<Bool>(false)

  /// Creates a composite holding `disposables`.
  public init(_ disposables: [any Disposable] = []) {
    state.withLock { state in
      for disposable in disposables {
        state.disposables[state.nextKey] = disposable
        state.nextKey += 1
      }
    }
  }

  /// Creates a composite holding `disposables`.
  public convenience init(_ disposables: any Disposable...) {
    self.init(disposables)
  }

  /// Whether ``dispose()`` has been called.
  public var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

  /// The number of disposables held.
  public var count: Int { state.withLock { $0.disposables.count } }

  /// Adds `disposable`, returning the key to remove it with, or `nil` (after disposing it) if the
  /// composite is already disposed.
  @discardableResult
  public func insert(_ disposable: any Disposable) -> Key? {
    let key = state.withLock { state -> Key? in
      if state.isDisposed { return nil }
      defer { state.nextKey += 1 }
      state.disposables[state.nextKey] = disposable
      return Key(value: state.nextKey)
    }
    if key == nil { disposable.dispose() }
    return key
  }

  /// Removes and disposes the disposable inserted under `key`.
  public func remove(for key: Key) {
    let removed = state.withLock { $0.disposables.removeValue(forKey: key.value) }
    removed?.dispose()
  }

  /// Removes the disposable inserted under `key` without disposing it.
  public func detach(for key: Key) {
    _ = state.withLock { $0.disposables.removeValue(forKey: key.value) }
  }

  /// Disposes every disposable held and every one inserted later.
  public func dispose() {
    disposedFlag.store(true, ordering: .releasing)
    let all = state.withLock { state -> [any Disposable] in
      state.isDisposed = true
      defer { state.disposables = [:] }
      return state.disposables.sorted { $0.key < $1.key }.map(\.value)
    }
    for disposable in all { disposable.dispose() }
  }
}
