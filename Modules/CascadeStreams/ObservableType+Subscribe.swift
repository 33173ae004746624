extension ObservableType {
  /// Subscribes with closures for each kind of event.
  ///
  /// The handlers are called following the stream grammar, never concurrently. After a terminal
  /// event, `onDisposed` runs and the subscription releases its upstream.
  ///
  /// ```swift
  /// let subscription = Observable.from([1, 2, 3]).subscribe(
  ///   onNext: { print("value", $0) },
  ///   onCompleted: { print("done") }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - onNext: Called with each value.
  ///   - onError: Called with the failure, if the stream fails.
  ///   - onCompleted: Called when the stream completes.
  ///   - onDisposed: Called once when the subscription ends, however it ends.
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  @discardableResult
  public func subscribe(
    onNext: (@Sendable (Element) -> Void)? = nil,
    onError: (@Sendable (Failure) -> Void)? = nil,
    onCompleted: (@Sendable () -> Void)? = nil,
    onDisposed: (@Sendable () -> Void)? = nil
  ) -> any Disposable {
    let observer = ClosureObserver<Element, Failure>(
      onNext: onNext,
      onError: onError,
      onCompleted: onCompleted,
      onDisposed: onDisposed
    )
    observer.attach(subscribe(observer))
    return observer
  }

  /// Subscribes with one closure that receives every event.
  ///
  /// - Parameter on: Called with each event, following the stream grammar.
  /// - Returns: A disposable that ends the subscription.
  @inlinable
  @discardableResult
  public func subscribe(
    _ on: @escaping @Sendable (StreamEvent<Element, Failure>) -> Void
  )
    -> any Disposable
  {
    subscribe(
      onNext: { on(.next($0)) },
      onError: { on(.error($0)) },
      onCompleted: { on(.completed) }
    )
  }
}

/// The observer behind ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:)``.
///
/// It enforces the end of the grammar for the user's closures: nothing after a terminal event or
/// after disposal. Counts one in ``Resources/total`` while live.
public final class ClosureObserver<Element: Sendable, Failure: Error>: ObserverType, Cancelable {
  @usableFromInline
  let nextHandler: (@Sendable (Element) -> Void)?
  @usableFromInline
  let onError: (@Sendable (Failure) -> Void)?
  @usableFromInline
  let onCompleted: (@Sendable () -> Void)?
  private let onDisposed: (@Sendable () -> Void)?
  private let resource: Resources.Token
  private let upstream = SingleAssignmentDisposable()

  /// The lifetime of this subscription.
  public var lifetime: Lifetime? { ownLifetime }
  @usableFromInline let ownLifetime = Lifetime()

  /// Creates an observer calling the given closures.
  @usableFromInline
  init(
    onNext: (@Sendable (Element) -> Void)?,
    onError: (@Sendable (Failure) -> Void)?,
    onCompleted: (@Sendable () -> Void)?,
    onDisposed: (@Sendable () -> Void)?
  ) {
    nextHandler = onNext
    self.onError = onError
    self.onCompleted = onCompleted
    self.onDisposed = onDisposed
    resource = Resources.increment()
  }

  @usableFromInline
  func attach(_ disposable: any Disposable) {
    upstream.setDisposable(disposable)
  }

  /// Whether the subscription has ended.
  public var isDisposed: Bool { ownLifetime.hasEnded }

  /// Delivers one event to the closures, unless the subscription has ended.
  @inlinable
  public func on(_ event: StreamEvent<Element, Failure>) {
    switch event {
    case .next(let element):
      onNext(element)
    case .error(let failure):
      guard ownLifetime.end() else { return }
      onError?(failure)
      release()
    case .completed:
      guard ownLifetime.end() else { return }
      onCompleted?()
      release()
    }
  }

  /// Delivers a value to the closure, unless the subscription has ended.
  @inlinable
  public func onNext(_ element: Element) {
    guard !ownLifetime.hasEnded else { return }
    nextHandler?(element)
  }

  /// Ends the subscription and disposes its upstream.
  public func dispose() {
    guard ownLifetime.end() else { return }
    release()
  }

  @usableFromInline
  func release() {
    upstream.dispose()
    onDisposed?()
    Resources.decrement(resource)
  }
}
