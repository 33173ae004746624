/// A stream of user interface events, on the main queue, that never fails and replays nothing.
///
/// It shares one subscription among its subscribers and replays nothing to a new one. This is
/// RxCocoa's `Signal`, headless.
///
/// Make one from a stream with ``ObservableType/asSignal(onErrorJustReturn:)``,
/// ``ObservableType/asSignal(onErrorSignalWith:)`` or ``ObservableType/asSignal(onErrorRecover:)``
/// (each says what replaces a failure), or with ``ObservableType/asSignal()`` from a stream that
/// cannot fail, such as a ``PublishRelay``; consume it with ``emit(onNext:onCompleted:onDisposed:)``
/// or by emitting to a relay or an observer.
///
/// It differs from ``Driver`` only in the replay: a subscriber receives the events sent after it
/// subscribed, never an earlier one — what a tap, a navigation or a toast needs, which must not
/// happen again for a late subscriber.
///
/// ```swift
/// let saved = api.save(draft).map { _ in "Saved" }.asSignal(onErrorJustReturn: "Not saved")
/// saved.emit(onNext: { toast.show($0) }).disposed(by: bag)
/// ```
public struct Signal<Element: Sendable>: Sendable {
  let source: Observable<Element, Never>

  /// Wraps `upstream` into a signal: shared without replay, delivered on the main queue.
  ///
  /// - Parameter upstream: The source; it cannot fail.
  init(_ upstream: some ObservableType<Element, Never>) {
    source = upstream.share(replay: 0).observe(on: MainScheduler.instance)
  }

  /// A signal that emits `element` on the main queue, then completes.
  ///
  /// - Parameter element: The value.
  /// - Returns: The signal.
  public static func just(_ element: Element) -> Signal {
    Signal(Observable<Element, Never>.just(element))
  }

  /// A signal that completes on the main queue without a value.
  ///
  /// - Returns: The signal.
  public static func empty() -> Signal {
    Signal(Observable<Element, Never>.empty())
  }

  /// A signal that never emits or completes.
  ///
  /// - Returns: The signal.
  public static func never() -> Signal {
    Signal(Observable<Element, Never>.never())
  }

  /// This signal as a stream that cannot fail, its events on the main queue.
  ///
  /// - Returns: The stream.
  public func asObservable() -> Observable<Element, Never> { source }

  /// A signal of `transform` applied to each value.
  ///
  /// - Parameter transform: Transforms a value, on the main queue.
  /// - Returns: The signal of transformed values.
  public func map<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output
  ) -> Signal<Output> {
    Signal<Output>(source.map(transform))
  }

  /// A signal of the values for which `isIncluded` returns `true`.
  ///
  /// - Parameter isIncluded: Decides, on the main queue, whether a value passes.
  /// - Returns: The signal of the values that pass.
  public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> Signal {
    Signal(source.filter(isIncluded))
  }

  /// Calls `onNext` with each value and `onCompleted` at completion, on the main queue.
  ///
  /// RxCocoa's `emit(onNext:onCompleted:onDisposed:)`.
  ///
  /// ```swift
  /// taps.emit(onNext: { router.open(.settings) }).disposed(by: bag)
  /// ```
  ///
  /// - Parameters:
  ///   - onNext: Called with each value.
  ///   - onCompleted: Called when the signal completes.
  ///   - onDisposed: Called once the subscription has ended, however it ended.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func emit(
    onNext: (@Sendable (Element) -> Void)? = nil,
    onCompleted: (@Sendable () -> Void)? = nil,
    onDisposed: (@Sendable () -> Void)? = nil
  ) -> any Disposable {
    source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Sends this signal's events to `observer`, on the main queue.
  ///
  /// - Parameter observer: The observer; it is sent the values and the completion.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func emit<Observer: ObserverType>(to observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Never {
    source.subscribe(observer)
  }

  /// Sends each value to each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func emit(to relays: PublishRelay<Element>...) -> any Disposable {
    source.subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }

  /// Makes each value the current value of each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to update, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func emit(to relays: BehaviorRelay<Element>...) -> any Disposable {
    source.subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }

  /// Sends each value to each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func emit(to relays: ReplayRelay<Element>...) -> any Disposable {
    source.subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }
}
