extension ObservableType {
  /// This stream as a ``Signal``, a failure replaced by `element` followed by completion.
  ///
  /// RxCocoa's `asSignal(onErrorJustReturn:)`.
  ///
  /// ```swift
  /// let saved = api.save(draft).asSignal(onErrorJustReturn: false)
  /// ```
  ///
  /// - Parameter element: The value that replaces a failure.
  /// - Returns: The signal.
  public func asSignal(onErrorJustReturn element: Element) -> Signal<Element> {
    Signal(catchAndReturn(element))
  }

  /// This stream as a ``Signal``, a failure replaced by the events of `fallback`.
  ///
  /// RxCocoa's `asSignal(onErrorSignalWith:)`.
  ///
  /// ```swift
  /// let notices = api.notices().asSignal(onErrorSignalWith: .empty())
  /// ```
  ///
  /// - Parameter fallback: The signal whose events follow a failure.
  /// - Returns: The signal.
  public func asSignal(onErrorSignalWith fallback: Signal<Element>) -> Signal<Element> {
    Signal(self.catch { _ in fallback.asObservable() })
  }

  /// This stream as a ``Signal``, a failure replaced by the events of the signal `recover`
  /// returns for it.
  ///
  /// RxCocoa's `asSignal(onErrorRecover:)`.
  ///
  /// ```swift
  /// let alerts = api.save(draft).asSignal(onErrorRecover: { .just(.failed($0)) })
  /// ```
  ///
  /// - Parameter recover: Returns, for the failure, the signal whose events follow it.
  /// - Returns: The signal.
  public func asSignal(
    onErrorRecover recover: @escaping @Sendable (Failure) -> Signal<Element>
  ) -> Signal<Element> {
    Signal(self.catch { failure in recover(failure).asObservable() })
  }
}

extension ObservableType where Failure == Never {
  /// This stream, which cannot fail, as a ``Signal``.
  ///
  /// RxCocoa's `asSignal()` of a `PublishRelay` or an `Infallible`.
  ///
  /// ```swift
  /// let taps = PublishRelay<Void>()
  /// taps.asSignal().emit(onNext: { print("tap") }).disposed(by: bag)
  /// ```
  ///
  /// - Returns: The signal.
  public func asSignal() -> Signal<Element> {
    Signal(self)
  }
}
