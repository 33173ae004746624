extension ObservableType {
  /// Emits only the value at zero-based position `index`, then completes and disposes the
  /// upstream.
  ///
  /// If this stream completes before reaching `index`, the result completes without a value.
  /// RxSwift's `element(at:)` fails with `RxError.argumentOutOfRange` there; here the result's
  /// failure type is this stream's, so it cannot, and `element(at:).asSingle()` is the form that
  /// fails (with ``ElementCountError/noElements``).
  ///
  /// ```swift
  /// Observable.of("a", "b", "c").element(at: 1)  // "b"
  /// ```
  ///
  /// - Parameter index: The position of the value to emit; must not be negative.
  /// - Returns: A stream of at most one value, the one at `index`.
  public func element(at index: Int) -> Observable<Element, Failure> {
    precondition(index >= 0, "element(at:) requires a non-negative index")
    return skip(index).take(1)
  }
}
