/// A bag of disposables that disposes them all when it is released.
///
/// Keep a bag as a property of the object that owns subscriptions; they end with it.
///
/// ```swift
/// final class ViewModel {
///   let bag = DisposeBag()
///   init(stream: Observable<Int, Never>) {
///     stream.subscribe(onNext: { print($0) }).disposed(by: bag)
///   }
/// }
/// ```
public final class DisposeBag: Sendable {
  private let composite = CompositeDisposable()

  /// Creates an empty bag.
  public init() {}

  /// Adds `disposable` to the bag.
  public func insert(_ disposable: any Disposable) {
    composite.insert(disposable)
  }

  /// Adds `disposables` to the bag.
  public func insert(_ disposables: any Disposable...) {
    for disposable in disposables { composite.insert(disposable) }
  }

  /// Disposes everything in the bag now; the bag stays usable and disposes later insertions
  /// at once.
  public func dispose() {
    composite.dispose()
  }

  deinit {
    composite.dispose()
  }
}
