/// A type-erased stream of `Element` values that fails with `Failure`.
///
/// `Observable` is a description of work, started anew for each subscriber (a *cold* stream),
/// unless it comes from a subject or ``ObservableType/share(replay:)`` (a *hot* one). Use
/// `Failure == Never` (``Infallible``) for streams that cannot fail, such as state streams.
///
/// ```swift
/// let bag = DisposeBag()
/// Observable.from([1, 2, 3, 4])
///   .filter { $0.isMultiple(of: 2) }
///   .map { $0 * 10 }
///   .subscribe(onNext: { print($0) })  // 20, 40
///   .disposed(by: bag)
/// ```
public struct Observable<Element: Sendable, Failure: Error>: ObservableType {
  @usableFromInline
  let producer: @Sendable (AnyObserver<Element, Failure>) -> any Disposable

  /// Wraps a producer that already keeps the stream grammar.
  ///
  /// Library-internal; users call ``create(_:)``, which enforces the grammar.
  @inlinable
  package init(
    unchecked producer: @escaping @Sendable (AnyObserver<Element, Failure>) -> any Disposable
  ) {
    self.producer = producer
  }

  /// Starts delivering events to `observer`.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Failure {
    producer(observer.asObserver())
  }
}

/// A stream that cannot fail: the type of state streams.
public typealias Infallible<Element: Sendable> = Observable<Element, Never>
