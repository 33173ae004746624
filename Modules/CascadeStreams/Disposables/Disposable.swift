/// A handle that releases a resource, usually a subscription.
///
/// Disposing is idempotent: the first call releases, later calls do nothing. After `dispose()`
/// returns on the thread that delivers a subscription's events, that subscription delivers nothing
/// more.
public protocol Disposable: Sendable {
  /// Releases the resource. Safe to call more than once and from any thread.
  func dispose()
}

/// A disposable that can report whether it has been disposed.
public protocol Cancelable: Disposable {
  /// Whether ``Disposable/dispose()`` has been called.
  var isDisposed: Bool { get }
}

extension Disposable {
  /// Adds this disposable to `bag`, which disposes it when the bag is released.
  ///
  /// ```swift
  /// stream.subscribe(onNext: { print($0) }).disposed(by: bag)
  /// ```
  public func disposed(by bag: DisposeBag) {
    bag.insert(self)
  }
}

/// Factories for the common disposables.
public enum Disposables: Sendable {
  /// A disposable that does nothing.
  public static let empty: any Disposable = NopDisposable()

  /// A disposable that runs `action` exactly once, on the first ``Disposable/dispose()``.
  public static func create(_ action: @escaping @Sendable () -> Void) -> any Cancelable {
    AnonymousDisposable(action)
  }

  /// A disposable that disposes all of `disposables` together.
  public static func create(_ disposables: any Disposable...) -> any Cancelable {
    CompositeDisposable(disposables)
  }

  /// A disposable that disposes all of `disposables` together.
  public static func create(_ disposables: [any Disposable]) -> any Cancelable {
    CompositeDisposable(disposables)
  }
}

private struct NopDisposable: Disposable {
  func dispose() {}
}
