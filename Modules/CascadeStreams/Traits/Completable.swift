/// The outcome of a ``Completable``: completion or a failure.
public enum CompletableEvent<Failure: Error>: Sendable {
  /// The completable failed.
  case error(Failure)
  /// The completable completed.
  case completed
}

extension CompletableEvent: Equatable where Failure: Equatable {}

/// Work that completes or fails, with no value: RxSwift's `Completable`.
///
/// Build one with ``create(_:)``, ``empty()``, ``error(_:)`` or from an `async` function
/// (``init(priority:operation:)``); convert a stream with ``ObservableType/asCompletable()``,
/// which ignores its values. ``asObservable()`` gives a stream of no values, and ``run()`` awaits
/// the outcome in `async` code.
///
/// ```swift
/// let save = Completable<DiskError> { try await store.save(todos) }
/// try await save.run()
/// ```
public struct Completable<Failure: Error>: Sendable {
  @usableFromInline let source: Observable<Never, Failure>

  /// Wraps a stream of no values.
  package init(unchecked source: Observable<Never, Failure>) {
    self.source = source
  }

  /// Creates a completable from a producer that reports its outcome once.
  ///
  /// Only the first outcome counts, whatever thread reports it; later ones are ignored. The
  /// returned disposable is the teardown: it runs when the outcome is reported or when the
  /// subscriber disposes of the subscription, whichever comes first.
  ///
  /// - Parameter subscribe: Starts the work for one subscriber and returns its teardown.
  /// - Returns: A completable that runs `subscribe` for each subscriber.
  public static func create(
    _ subscribe:
      @escaping @Sendable (_ report: @escaping @Sendable (CompletableEvent<Failure>) -> Void) ->
      any Disposable
  ) -> Completable {
    Completable(
      unchecked: Observable<Never, Failure>.create { observer in
        subscribe { event in
          switch event {
          case .error(let failure): observer.onError(failure)
          case .completed: observer.onCompleted()
          }
        }
      }
    )
  }

  /// A completable that completes at once.
  ///
  /// - Returns: The completable.
  public static func empty() -> Completable {
    Completable(unchecked: Observable<Never, Failure>.empty())
  }

  /// A completable that fails with `failure` at once.
  ///
  /// - Parameter failure: The failure.
  /// - Returns: The completable.
  public static func error(_ failure: Failure) -> Completable {
    Completable(unchecked: Observable<Never, Failure>.error(failure))
  }

  /// A completable that never reports an outcome.
  ///
  /// - Returns: The completable.
  public static func never() -> Completable {
    Completable(unchecked: Observable<Never, Failure>.never())
  }

  /// A completable that runs an `async` operation for each subscriber and completes when it
  /// returns.
  ///
  /// The task starts on subscription; disposing of the subscription cancels it, and then
  /// nothing is reported (see ``Observable/run(priority:_:)``).
  ///
  /// - Parameters:
  ///   - priority: The priority of the task; `nil` for the default.
  ///   - operation: The work; what it throws fails the completable.
  public init(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable () async throws(Failure) -> Void
  ) {
    self.init(
      unchecked: Observable<Never, Failure>.run(priority: priority) { _ throws(Failure) in
        try await operation()
      }
    )
  }

  /// This completable as a stream of no values that completes or fails.
  ///
  /// - Returns: The stream.
  public func asObservable() -> Observable<Never, Failure> { source }

  /// Subscribes with one closure that receives the outcome.
  ///
  /// - Parameter on: Called once, with the completion or the failure.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func subscribe(
    _ on: @escaping @Sendable (CompletableEvent<Failure>) -> Void
  ) -> any Disposable {
    source.subscribe(onError: { on(.error($0)) }, onCompleted: { on(.completed) })
  }

  /// Subscribes with a closure for each outcome.
  ///
  /// - Parameters:
  ///   - onCompleted: Called when the completable completes.
  ///   - onError: Called with the failure.
  ///   - onDisposed: Called once the subscription has ended, however it ended.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func subscribe(
    onCompleted: (@Sendable () -> Void)? = nil,
    onError: (@Sendable (Failure) -> Void)? = nil,
    onDisposed: (@Sendable () -> Void)? = nil
  ) -> any Disposable {
    source.subscribe(onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Runs the completable and waits for it: returns when it completes, throws its failure.
  ///
  /// Cancelling the awaiting task disposes of the subscription and throws `CancellationError`.
  ///
  /// ```swift
  /// try await Completable<DiskError> { try await store.save(todos) }.run()
  /// ```
  ///
  /// - Throws: The completable's `Failure`, or `CancellationError` if the task was cancelled
  ///   before it completed.
  public func run() async throws {
    var iterator = source.values.makeAsyncIterator()
    _ = try await iterator.next()
    // The bridge also ends when the task is cancelled.
    try Task.checkCancellation()
  }
}
