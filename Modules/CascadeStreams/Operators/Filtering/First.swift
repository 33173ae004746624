extension ObservableType {
  /// Emits the first value and completes, or completes without a value if this stream completes
  /// empty.
  ///
  /// The upstream is disposed as soon as the first value has been emitted. The same as
  /// `take(1)`. RxSwift's `first()` is a `Single` of an optional that emits `nil` for an empty
  /// stream; this one keeps the element type and emits nothing (`first().asMaybe()` is the
  /// trait of one value or none).
  ///
  /// ```swift
  /// store.state.first()  // the current state, once
  /// ```
  public func first() -> Observable<Element, Failure> {
    take(1)
  }
}
