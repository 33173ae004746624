/// The failure of a stream converted to a ``Single`` or a ``Maybe`` that did not have the number
/// of values the trait promises, or that failed.
///
/// RxSwift reports the first two cases as `RxError.noElements` and `RxError.moreThanOneElement`,
/// in an untyped error. Cascade's failures are typed, so the conversion wraps the stream's own
/// failure in ``failure(_:)`` instead of mixing error types.
///
/// ```swift
/// let user: Single<User, ElementCountError<HTTPError>> = users.filter { $0.id == 42 }.asSingle()
/// ```
public enum ElementCountError<Failure: Error>: Error {
  /// The stream completed without a value (``ObservableType/asSingle()`` only).
  case noElements
  /// The stream emitted a second value.
  case moreThanOneElement
  /// The stream failed.
  case failure(Failure)
}

extension ElementCountError: Equatable where Failure: Equatable {}
