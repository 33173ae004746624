/// A push-based stream of values that may end with a failure or completion.
///
/// Subscribing starts delivery to an observer and returns a ``Disposable`` that stops it. Events
/// follow the grammar `next* (error | completed)?` and calls to one observer never overlap.
///
/// The element-wise operators (``ObservableType/map(_:)->Streams.Map<Self,Output>``, ``filter(_:)``,
/// ``compactMap(_:)``, ``scan(_:_:)``, ``distinctUntilChanged()``,
/// ``do(onNext:onError:onCompleted:onSubscribe:onSubscribed:onDispose:)``) return concrete
/// generic types the compiler specializes into one loop; the others return the type-erased
/// ``Observable``. Call ``asObservable()`` to erase a chain for storage.
public protocol ObservableType<Element, Failure>: Sendable {
  /// The type of values.
  associatedtype Element: Sendable
  /// The type of failure; `Never` for a stream that cannot fail.
  associatedtype Failure: Error

  /// Starts delivering events to `observer`.
  ///
  /// - Parameter observer: The observer receiving the events.
  /// - Returns: A disposable that ends the subscription.
  func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Failure
}

extension ObservableType {
  /// This stream, type-erased.
  @inlinable
  public func asObservable() -> Observable<Element, Failure> {
    if let erased = self as? Observable<Element, Failure> { return erased }
    return Observable(unchecked: { observer in self.subscribe(observer) })
  }
}
