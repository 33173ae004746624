/// A receiver of stream events.
///
/// The library calls ``on(_:)`` following the stream grammar `next* (error | completed)?`, one
/// event at a time: calls to one observer never overlap, so an observer needs no lock of its own
/// for state it alone touches.
public protocol ObserverType<Element, Failure>: Sendable {
  /// The type of values received.
  associatedtype Element: Sendable
  /// The type of failure received.
  associatedtype Failure: Error

  /// Receives one event.
  func on(_ event: StreamEvent<Element, Failure>)

  /// The lifetime of the subscription this observer serves, if it has one.
  ///
  /// Producers check it between elements and stop once it has ended. Library observers always
  /// have one; a plain ``AnyObserver`` built from a closure has none.
  var lifetime: Lifetime? { get }
}

extension ObserverType {
  /// Sends a value.
  @inlinable
  public func onNext(_ element: Element) { on(.next(element)) }

  /// Terminates with a failure.
  @inlinable
  public func onError(_ failure: Failure) { on(.error(failure)) }

  /// Terminates normally.
  @inlinable
  public func onCompleted() { on(.completed) }

  /// No lifetime: the default for observers that do not track one.
  @inlinable
  public var lifetime: Lifetime? { nil }

  /// This observer, type-erased.
  @inlinable
  public func asObserver() -> AnyObserver<Element, Failure> {
    if let erased = self as? AnyObserver<Element, Failure> { return erased }
    return AnyObserver(on, lifetime: lifetime)
  }
}

extension ObserverType where Element == Void {
  /// Sends a value of a `Void` stream.
  @inlinable
  public func onNext() { on(.next(())) }
}

/// A type-erased observer: a closure that receives events.
///
/// ```swift
/// let printer = AnyObserver<Int, Never> { event in print(event) }
/// Observable.from([1, 2]).subscribe(printer)
/// ```
public struct AnyObserver<Element: Sendable, Failure: Error>: ObserverType {
  @usableFromInline
  let handler: @Sendable (StreamEvent<Element, Failure>) -> Void

  /// The lifetime of the subscription this observer serves, if any.
  public let lifetime: Lifetime?

  /// Creates an observer from a closure that receives every event.
  ///
  /// - Parameters:
  ///   - handler: Receives every event.
  ///   - lifetime: The lifetime producers may poll to stop early; `nil` if there is none.
  @inlinable
  public init(
    _ handler: @escaping @Sendable (StreamEvent<Element, Failure>) -> Void,
    lifetime: Lifetime? = nil
  ) {
    self.handler = handler
    self.lifetime = lifetime
  }

  /// Receives one event.
  @inlinable
  public func on(_ event: StreamEvent<Element, Failure>) { handler(event) }
}
