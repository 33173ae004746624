/// A type-erased stream of `Element` values that fails with `Failure`.
///
/// `Observable` is a description of work, started anew for each subscriber (a *cold* stream),
/// unless it comes from a subject or ``ObservableType/share(replay:)`` (a *hot* one). Use
/// `Failure == Never` (``Infallible``) for streams that cannot fail, such as state streams.
///
/// ```swift
/// let bag = DisposeBag()
/// Observable.from([1, 2, 3, 4])
///   .filter { $0.isMultiple(of: 2) }
///   .map { $0 * 10 }
///   .subscribe(onNext: { print($0) })  // 20, 40
///   .disposed(by: bag)
/// ```
public struct Observable<Element: Sendable, Failure: Error>: ObservableType {
  @usableFromInline
  let producer: @Sendable (AnyObserver<Element, Failure>) -> any Disposable

  /// What the stream emits when it is made of plain values, or `nil`.
  ///
  /// A stream made with ``just(_:)``, ``empty()``, ``of(_:)``, ``from(_:)`` an array, or `concat`
  /// of such streams emits all of these elements on subscription, then completes.
  ///
  /// A consumer that only collects a stream's elements (a reactor's `mutate` returning
  /// `.just(mutation)`) takes them from here without subscribing: no sink, no disposable.
  @usableFromInline
  package let synchronousElements: SynchronousElements<Element>?

  /// How a source that delivers to its observers itself (a store's state streams) subscribes
  /// one, or `nil` for every other stream.
  ///
  /// ``subscribe(_:)`` hands it the observer of
  /// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:)`` as it is, any other
  /// type-erased: a state then goes from the store's subscription to that observer without an
  /// ``AnyObserver`` between them (W1 Reactor 935 → 925 instructions per action, W1 Feedback
  /// 624 → 603; `Tooling/callgrind.sh`).
  @usableFromInline
  package let directSubscribe: (@Sendable (DirectObserver<Element, Failure>) -> any Disposable)?

  /// Wraps a producer that already keeps the stream grammar.
  ///
  /// Library-internal; users call ``create(_:)``, which enforces the grammar.
  @inlinable
  package init(
    unchecked producer: @escaping @Sendable (AnyObserver<Element, Failure>) -> any Disposable
  ) {
    self.producer = producer
    synchronousElements = nil
    directSubscribe = nil
  }

  /// Wraps a source that keeps the stream grammar and delivers to its observers itself (see
  /// ``directSubscribe``).
  @inlinable
  package init(
    direct subscribe: @escaping @Sendable (DirectObserver<Element, Failure>) -> any Disposable
  ) {
    // Never called: `subscribe` goes to `directSubscribe`. A closure that captures nothing costs
    // no allocation: the stream is one object, the context of `subscribe`.
    producer = { _ in Disposables.empty }
    synchronousElements = nil
    directSubscribe = subscribe
  }

  /// A stream of plain values: it emits `elements` on subscription, then completes.
  @inlinable
  package init(_ elements: SynchronousElements<Element>) {
    // Never called: `subscribe` delivers `elements` itself. A closure that captures nothing
    // costs no allocation, so `.just(x)` makes one object, the box of its element.
    producer = { _ in Disposables.empty }
    synchronousElements = elements
    directSubscribe = nil
  }

  /// Starts delivering events to `observer`.
  @inlinable
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Failure {
    if let synchronousElements {
      return synchronousElements.deliver(to: observer.asObserver())
    }
    if let directSubscribe {
      // The cast is resolved where this is specialized: no dynamic cast for a known type.
      if let closures = observer as? ClosureObserver<Element, Failure> {
        return directSubscribe(.closures(closures))
      }
      return directSubscribe(.erased(observer.asObserver()))
    }
    return producer(observer.asObserver())
  }
}

/// The observer a source with ``Observable/directSubscribe`` delivers to.
@usableFromInline
package enum DirectObserver<Element: Sendable, Failure: Error> {
  /// The observer of ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:)``,
  /// called directly.
  case closures(ClosureObserver<Element, Failure>)
  /// Any other observer, type-erased.
  case erased(AnyObserver<Element, Failure>)

  /// Delivers a value to the observer (its ``ObserverType/onNext(_:)``: no event made).
  @inlinable
  package var onNext: @Sendable (Element) -> Void {
    switch self {
    case .closures(let observer): { observer.onNext($0) }
    case .erased(let observer): { observer.onNext($0) }
    }
  }

  /// Completes the observer.
  @inlinable
  package var onCompleted: @Sendable () -> Void {
    switch self {
    case .closures(let observer): { observer.on(.completed) }
    case .erased(let observer): { observer.on(.completed) }
    }
  }
}

/// The elements of a stream made of plain values, emitted all at once on subscription.
///
/// See ``Observable/synchronousElements``.
@usableFromInline
package enum SynchronousElements<Element: Sendable>: Sendable {
  case empty
  /// One element, boxed: `Observable.just(x)` makes one object, this box.
  case one(SynchronousElement<Element>)
  /// Two or more elements (an `Observable.from(array)` keeps the array it was given).
  case many([Element])

  /// `elements`.
  @inlinable
  package init(_ elements: [Element]) {
    switch elements.count {
    case 0: self = .empty
    case 1: self = .one(SynchronousElement(elements[0]))
    default: self = .many(elements)
    }
  }

  /// The elements, in order.
  @inlinable
  package var array: [Element] {
    switch self {
    case .empty: []
    case .one(let box): [box.element]
    case .many(let elements): elements
    }
  }

  /// Appends the elements to `array`.
  @inlinable
  package func append(to array: inout [Element]) {
    switch self {
    case .empty: break
    case .one(let box): array.append(box.element)
    case .many(let elements): array.append(contentsOf: elements)
    }
  }

  /// Emits the elements to `observer`, then completes, as ``Observable/from(_:)`` does:
  /// synchronously, stopping before the next element once disposed (for instance from inside the
  /// observer).
  @inlinable
  func deliver<Failure>(to observer: AnyObserver<Element, Failure>) -> any Disposable {
    switch self {
    case .empty:
      observer.on(.completed)
      return Disposables.empty
    case .one(let box):
      observer.on(.next(box.element))
      observer.on(.completed)
      return Disposables.empty
    case .many(let elements):
      return Self.emit(elements, to: observer)
    }
  }

  /// Emits each of `elements` to `observer`, then completes: synchronously, stopping before the
  /// next element once the returned disposable is disposed or the observer's lifetime has ended.
  @inlinable
  static func emit<S: Sequence, Failure>(
    _ elements: S,
    to observer: AnyObserver<Element, Failure>
  ) -> any Disposable where S.Element == Element {
    let disposable = BooleanDisposable()
    let lifetime = observer.lifetime
    for element in elements {
      if disposable.isDisposed || lifetime?.hasEnded == true { return disposable }
      observer.on(.next(element))
    }
    if !disposable.isDisposed { observer.on(.completed) }
    return disposable
  }
}

/// The one element of ``SynchronousElements/one(_:)``.
@usableFromInline
package final class SynchronousElement<Element: Sendable>: Sendable {
  @usableFromInline package let element: Element

  @inlinable
  package init(_ element: Element) {
    self.element = element
  }
}

/// A stream that cannot fail: the type of state streams.
public typealias Infallible<Element: Sendable> = Observable<Element, Never>
