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

  /// Receives a value: what `on(.next(element))` does, without making the event.
  ///
  /// The default calls ``on(_:)``. An observer that passes values on implements it too, so that
  /// a value goes down a chain of operators as it is, borrowed: made an event, a value is copied
  /// into it at each step (a retain of each reference it holds, a copy of its inline part),
  /// which for a large state delivered to feedbacks cost more than the reduction itself.
  func onNext(_ element: Element)

  /// The lifetime of the subscription this observer serves, if it has one.
  ///
  /// Producers check it between elements and stop once it has ended. Library observers always
  /// have one; a plain ``AnyObserver`` built from a closure has none.
  var lifetime: Lifetime? { get }
}

extension ObserverType {
  /// Sends a value, as ``on(_:)`` with `.next(element)`: the default of ``onNext(_:)``.
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
  ///
  /// The erased observer calls this one's ``on(_:)`` and ``onNext(_:)``, compiled for its type
  /// where this is called.
  @inlinable
  public func asObserver() -> AnyObserver<Element, Failure> {
    if let erased = self as? AnyObserver<Element, Failure> { return erased }
    return AnyObserver(erasing: self)
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
  /// The erased observer's ``ObserverType/onNext(_:)``; `nil` for an observer made of a closure
  /// of events, which ``onNext(_:)`` hands `.next(element)`.
  @usableFromInline
  let next: (@Sendable (Element) -> Void)?

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
    next = nil
    self.lifetime = lifetime
  }

  /// `observer`, erased (``ObserverType/asObserver()``).
  ///
  /// Its two calls share one object: a class observer itself (each closure's context is the
  /// observer), any other in a box, one allocation as for a single closure over it.
  @inlinable
  init<Observer: ObserverType>(erasing observer: Observer)
  where Observer.Element == Element, Observer.Failure == Failure {
    if Observer.self is AnyClass {
      handler = { observer.on($0) }
      next = { observer.onNext($0) }
    } else {
      let box = ObserverBox(observer)
      handler = { box.observer.on($0) }
      next = { box.observer.onNext($0) }
    }
    lifetime = observer.lifetime
  }

  /// Receives one event.
  @inlinable
  public func on(_ event: StreamEvent<Element, Failure>) { handler(event) }

  /// Receives a value: the erased observer's ``ObserverType/onNext(_:)``, or the closure's
  /// `.next(element)`.
  @inlinable
  public func onNext(_ element: Element) {
    if let next {
      next(element)
    } else {
      handler(.next(element))
    }
  }
}

/// An observer that is not a class, held by the two closures of the ``AnyObserver`` erasing it.
@usableFromInline
final class ObserverBox<Observer: ObserverType>: Sendable {
  @usableFromInline let observer: Observer

  @inlinable
  init(_ observer: Observer) {
    self.observer = observer
  }
}
