/// One event of a stream: a value, a failure, or normal completion.
///
/// A stream's events follow the grammar `next* (error | completed)?`: any number of values,
/// then at most one terminal event, after which nothing more is delivered.
public enum StreamEvent<Element: Sendable, Failure: Error>: Sendable {
  /// A value.
  case next(Element)
  /// Termination with a failure.
  case error(Failure)
  /// Normal termination.
  case completed

  /// The value carried by a ``next(_:)`` event, or `nil`.
  @inlinable
  public var element: Element? {
    if case .next(let element) = self { return element }
    return nil
  }

  /// The failure carried by an ``error(_:)`` event, or `nil`.
  @inlinable
  public var failure: Failure? {
    if case .error(let failure) = self { return failure }
    return nil
  }

  /// Whether this is a terminal event (``error(_:)`` or ``completed``).
  @inlinable
  public var isTerminal: Bool {
    if case .next = self { return false }
    return true
  }

  /// Transforms the value of a ``next(_:)`` event, keeping terminal events.
  @inlinable
  public func map<T: Sendable>(
    _ transform: (Element) throws(Failure) -> T
  ) -> StreamEvent<T, Failure> {
    switch self {
    case .next(let element):
      do { return .next(try transform(element)) } catch { return .error(error) }
    case .error(let failure): return .error(failure)
    case .completed: return .completed
    }
  }

  /// Transforms the failure of an ``error(_:)`` event, keeping the others.
  @inlinable
  public func mapError<F: Error>(_ transform: (Failure) -> F) -> StreamEvent<Element, F> {
    switch self {
    case .next(let element): return .next(element)
    case .error(let failure): return .error(transform(failure))
    case .completed: return .completed
    }
  }
}

extension StreamEvent: Equatable where Element: Equatable, Failure: Equatable {}

extension StreamEvent: CustomStringConvertible {
  /// A short description such as `next(1)`, `error(...)` or `completed`.
  public var description: String {
    switch self {
    case .next(let element): "next(\(element))"
    case .error(let failure): "error(\(failure))"
    case .completed: "completed"
    }
  }
}
