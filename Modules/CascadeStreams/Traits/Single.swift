/// A stream of exactly one value or a failure: RxSwift's `Single`.
///
/// A single either succeeds with one value or fails; it cannot complete empty or emit twice.
/// Build one with ``create(_:)``, ``just(_:)``, ``error(_:)`` or from an `async` function
/// (``init(priority:operation:)``); convert a stream with ``ObservableType/asSingle()``, which
/// fails if the stream does not have exactly one value. ``asObservable()`` gives the stream of
/// one value followed by completion, and ``value`` awaits the outcome in `async` code.
///
/// ```swift
/// let user = Single<User, HTTPError> { try await api.user(id: 42) }
/// user.subscribe(onSuccess: { show($0) }, onFailure: { show($0) })
/// let again = try await user.value
/// ```
///
/// Like an ``Observable``, a single is a description of work, started anew for each subscriber.
public struct Single<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let source: Observable<Element, Failure>

  /// Wraps a stream that already emits exactly one value then completes, or fails.
  package init(unchecked source: Observable<Element, Failure>) {
    self.source = source
  }

  /// Creates a single from a producer that reports its outcome once.
  ///
  /// Only the first outcome counts, whatever thread reports it; later ones are ignored. The
  /// returned disposable is the teardown: it runs when the outcome is reported or when the
  /// subscriber disposes of the subscription, whichever comes first.
  ///
  /// ```swift
  /// let config = Single<Config, LoadError>.create { report in
  ///   let request = loader.load { result in report(result) }
  ///   return Disposables.create { request.cancel() }
  /// }
  /// ```
  ///
  /// - Parameter subscribe: Starts the work for one subscriber and returns its teardown.
  /// - Returns: A single that runs `subscribe` for each subscriber.
  public static func create(
    _ subscribe:
      @escaping @Sendable (_ report: @escaping @Sendable (Result<Element, Failure>) -> Void) ->
      any Disposable
  ) -> Single {
    Single(
      unchecked: Observable<Element, Failure>.create { observer in
        let reported = Lifetime()
        return subscribe { result in
          guard reported.end() else { return }
          switch result {
          case .success(let element):
            observer.onNext(element)
            observer.onCompleted()
          case .failure(let failure):
            observer.onError(failure)
          }
        }
      }
    )
  }

  /// A single that succeeds with `element` at once.
  ///
  /// - Parameter element: The value.
  /// - Returns: The single.
  public static func just(_ element: Element) -> Single {
    Single(unchecked: Observable<Element, Failure>.just(element))
  }

  /// A single that fails with `failure` at once.
  ///
  /// - Parameter failure: The failure.
  /// - Returns: The single.
  public static func error(_ failure: Failure) -> Single {
    Single(unchecked: Observable<Element, Failure>.error(failure))
  }

  /// A single that never reports an outcome.
  ///
  /// - Returns: The single.
  public static func never() -> Single {
    Single(unchecked: Observable<Element, Failure>.never())
  }

  /// A single built by `factory` anew for each subscriber.
  ///
  /// - Parameter factory: Builds the single to subscribe to.
  /// - Returns: The single.
  public static func deferred(_ factory: @escaping @Sendable () -> Single) -> Single {
    Single(unchecked: Observable<Element, Failure>.deferred { factory().source })
  }

  /// A single that runs an `async` operation for each subscriber and succeeds with its result.
  ///
  /// The task starts on subscription; disposing of the subscription cancels it, and then
  /// nothing is reported (see ``Observable/task(priority:_:)``).
  ///
  /// ```swift
  /// let answer = Single<Int, Never> { 42 }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task; `nil` for the default.
  ///   - operation: Computes the value; what it throws fails the single.
  public init(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable () async throws(Failure) -> Element
  ) {
    self.init(unchecked: Observable<Element, Failure>.task(priority: priority, operation))
  }

  /// This single as a stream: its value followed by completion, or its failure.
  ///
  /// - Returns: The stream.
  public func asObservable() -> Observable<Element, Failure> { source }

  /// Subscribes with one closure that receives the outcome.
  ///
  /// - Parameter on: Called once, with the value or the failure.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func subscribe(
    _ on: @escaping @Sendable (Result<Element, Failure>) -> Void
  ) -> any Disposable {
    source.subscribe(onNext: { on(.success($0)) }, onError: { on(.failure($0)) })
  }

  /// Subscribes with a closure for each outcome.
  ///
  /// - Parameters:
  ///   - onSuccess: Called with the value.
  ///   - onFailure: Called with the failure.
  ///   - onDisposed: Called once the subscription has ended, however it ended.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func subscribe(
    onSuccess: (@Sendable (Element) -> Void)? = nil,
    onFailure: (@Sendable (Failure) -> Void)? = nil,
    onDisposed: (@Sendable () -> Void)? = nil
  ) -> any Disposable {
    source.subscribe(onNext: onSuccess, onError: onFailure, onDisposed: onDisposed)
  }

  /// The single's value, awaited: subscribes, and returns the value or throws the failure.
  ///
  /// Cancelling the awaiting task disposes of the subscription and throws `CancellationError`.
  ///
  /// ```swift
  /// let user = try await Single<User, HTTPError> { try await api.user(id: 42) }.value
  /// ```
  ///
  /// - Throws: The single's `Failure`, or `CancellationError` if the task was cancelled first.
  public var value: Element {
    get async throws {
      var iterator = source.values.makeAsyncIterator()
      if let element = try await iterator.next() { return element }
      // A single ends with a value or a failure; the bridge ends empty only when cancelled.
      throw CancellationError()
    }
  }
}
