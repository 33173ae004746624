extension ObservableType where Failure == Never {
  /// Sends every value of this stream to `observer` (a subject, a reactor's action input).
  ///
  /// ```swift
  /// taps.map { .refresh }.bind(to: reactor.action).disposed(by: bag)
  /// ```
  ///
  /// - Returns: A disposable that ends the binding.
  @discardableResult
  public func bind<Observer: ObserverType>(to observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Never {
    subscribe(observer)
  }
}
