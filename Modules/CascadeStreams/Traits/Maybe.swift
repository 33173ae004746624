/// The outcome of a ``Maybe``: a value, a failure, or completion without a value.
public enum MaybeEvent<Element: Sendable, Failure: Error>: Sendable {
  /// The maybe succeeded with a value.
  case success(Element)
  /// The maybe failed.
  case error(Failure)
  /// The maybe completed without a value.
  case completed
}

extension MaybeEvent: Equatable where Element: Equatable, Failure: Equatable {}

/// A stream of at most one value, or a failure: RxSwift's `Maybe`.
///
/// A maybe succeeds with one value, completes without one, or fails; it never emits twice.
/// Build one with ``create(_:)``, ``just(_:)``, ``empty()`` or ``error(_:)``; convert a stream
/// with ``ObservableType/asMaybe()``, which fails if the stream has more than one value.
/// ``asObservable()`` gives the stream, and ``value`` awaits the outcome in `async` code.
///
/// ```swift
/// let cached = Maybe<Page, Never>.create { report in
///   report(cache.page(1).map(MaybeEvent.success) ?? .completed)
///   return Disposables.empty
/// }
/// let page = await cached.value  // nil when nothing was cached
/// ```
public struct Maybe<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let source: Observable<Element, Failure>

  /// Wraps a stream that already emits at most one value then completes, or fails.
  package init(unchecked source: Observable<Element, Failure>) {
    self.source = source
  }

  /// Creates a maybe from a producer that reports its outcome once.
  ///
  /// Only the first outcome counts, whatever thread reports it; later ones are ignored. The
  /// returned disposable is the teardown: it runs when the outcome is reported or when the
  /// subscriber disposes of the subscription, whichever comes first.
  ///
  /// - Parameter subscribe: Starts the work for one subscriber and returns its teardown.
  /// - Returns: A maybe that runs `subscribe` for each subscriber.
  public static func create(
    _ subscribe:
      @escaping @Sendable (_ report: @escaping @Sendable (MaybeEvent<Element, Failure>) -> Void)
      -> any Disposable
  ) -> Maybe {
    Maybe(
      unchecked: Observable<Element, Failure>.create { observer in
        let reported = Lifetime()
        return subscribe { event in
          guard reported.end() else { return }
          switch event {
          case .success(let element):
            observer.onNext(element)
            observer.onCompleted()
          case .error(let failure):
            observer.onError(failure)
          case .completed:
            observer.onCompleted()
          }
        }
      }
    )
  }

  /// A maybe that succeeds with `element` at once.
  ///
  /// - Parameter element: The value.
  /// - Returns: The maybe.
  public static func just(_ element: Element) -> Maybe {
    Maybe(unchecked: Observable<Element, Failure>.just(element))
  }

  /// A maybe that completes without a value at once.
  ///
  /// - Returns: The maybe.
  public static func empty() -> Maybe {
    Maybe(unchecked: Observable<Element, Failure>.empty())
  }

  /// A maybe that fails with `failure` at once.
  ///
  /// - Parameter failure: The failure.
  /// - Returns: The maybe.
  public static func error(_ failure: Failure) -> Maybe {
    Maybe(unchecked: Observable<Element, Failure>.error(failure))
  }

  /// A maybe that never reports an outcome.
  ///
  /// - Returns: The maybe.
  public static func never() -> Maybe {
    Maybe(unchecked: Observable<Element, Failure>.never())
  }

  /// This maybe as a stream: its value (if any) followed by completion, or its failure.
  ///
  /// - Returns: The stream.
  public func asObservable() -> Observable<Element, Failure> { source }

  /// Subscribes with one closure that receives the outcome.
  ///
  /// - Parameter on: Called once, with the value, the completion or the failure.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func subscribe(
    _ on: @escaping @Sendable (MaybeEvent<Element, Failure>) -> Void
  ) -> any Disposable {
    // The value and the completion that follows it are one outcome: report the value only.
    let succeeded = Lifetime()
    return source.subscribe(
      onNext: { element in
        succeeded.end()
        on(.success(element))
      },
      onError: { on(.error($0)) },
      onCompleted: { if !succeeded.hasEnded { on(.completed) } }
    )
  }

  /// Subscribes with a closure for each outcome.
  ///
  /// - Parameters:
  ///   - onSuccess: Called with the value.
  ///   - onError: Called with the failure.
  ///   - onCompleted: Called when the maybe completes without a value.
  ///   - onDisposed: Called once the subscription has ended, however it ended.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func subscribe(
    onSuccess: (@Sendable (Element) -> Void)? = nil,
    onError: (@Sendable (Failure) -> Void)? = nil,
    onCompleted: (@Sendable () -> Void)? = nil,
    onDisposed: (@Sendable () -> Void)? = nil
  ) -> any Disposable {
    let succeeded = Lifetime()
    return source.subscribe(
      onNext: { element in
        succeeded.end()
        onSuccess?(element)
      },
      onError: onError,
      onCompleted: { if !succeeded.hasEnded { onCompleted?() } },
      onDisposed: onDisposed
    )
  }

  /// The maybe's value, awaited: subscribes, and returns the value, `nil` if the maybe
  /// completes without one, or throws the failure.
  ///
  /// Cancelling the awaiting task disposes of the subscription and throws `CancellationError`.
  ///
  /// - Throws: The maybe's `Failure`, or `CancellationError` if the task was cancelled first.
  public var value: Element? {
    get async throws {
      var iterator = source.values.makeAsyncIterator()
      if let element = try await iterator.next() { return element }
      // The bridge also ends empty when the task is cancelled.
      try Task.checkCancellation()
      return nil
    }
  }
}
