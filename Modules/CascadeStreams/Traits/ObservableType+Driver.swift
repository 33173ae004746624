extension ObservableType {
  /// This stream as a ``Driver``, a failure replaced by `element` followed by completion.
  ///
  /// RxCocoa's `asDriver(onErrorJustReturn:)`.
  ///
  /// ```swift
  /// let count = api.count().asDriver(onErrorJustReturn: 0)
  /// ```
  ///
  /// - Parameter element: The value that replaces a failure.
  /// - Returns: The driver.
  public func asDriver(onErrorJustReturn element: Element) -> Driver<Element> {
    Driver(catchAndReturn(element))
  }

  /// This stream as a ``Driver``, a failure replaced by the events of `fallback`.
  ///
  /// RxCocoa's `asDriver(onErrorDriveWith:)`.
  ///
  /// ```swift
  /// let results = api.search(query).asDriver(onErrorDriveWith: .empty())
  /// ```
  ///
  /// - Parameter fallback: The driver whose events follow a failure.
  /// - Returns: The driver.
  public func asDriver(onErrorDriveWith fallback: Driver<Element>) -> Driver<Element> {
    Driver(self.catch { _ in fallback.asObservable() })
  }

  /// This stream as a ``Driver``, a failure replaced by the events of the driver `recover`
  /// returns for it.
  ///
  /// RxCocoa's `asDriver(onErrorRecover:)`.
  ///
  /// ```swift
  /// let user = api.user().asDriver(onErrorRecover: { error in .just(.placeholder(error)) })
  /// ```
  ///
  /// - Parameter recover: Returns, for the failure, the driver whose events follow it.
  /// - Returns: The driver.
  public func asDriver(
    onErrorRecover recover: @escaping @Sendable (Failure) -> Driver<Element>
  ) -> Driver<Element> {
    Driver(self.catch { failure in recover(failure).asObservable() })
  }
}

extension ObservableType where Failure == Never {
  /// This stream, which cannot fail, as a ``Driver``.
  ///
  /// RxCocoa's `asDriver()` of a `BehaviorRelay` or an `Infallible`.
  ///
  /// ```swift
  /// let query = BehaviorRelay(value: "")
  /// query.asDriver().drive(onNext: { field.text = $0 }).disposed(by: bag)
  /// ```
  ///
  /// - Returns: The driver.
  public func asDriver() -> Driver<Element> {
    Driver(self)
  }
}
