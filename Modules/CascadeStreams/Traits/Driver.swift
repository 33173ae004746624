/// A stream for driving user interface, on the main queue, that never fails and replays its latest
/// value.
///
/// It shares one subscription among its subscribers and replays the latest value to each new
/// one. This is RxCocoa's `Driver`, headless.
///
/// Make one from a stream with ``ObservableType/asDriver(onErrorJustReturn:)``,
/// ``ObservableType/asDriver(onErrorDriveWith:)`` or ``ObservableType/asDriver(onErrorRecover:)``
/// (each says what replaces a failure), or with ``ObservableType/asDriver()`` from a stream that
/// cannot fail, such as a ``BehaviorRelay``; consume it with ``drive(onNext:onCompleted:onDisposed:)``
/// or by driving a relay or an observer.
///
/// - **Never fails**: a failure of the source is replaced as the conversion says.
/// - **On the main queue**: every event, the replayed value included, is delivered on the main
///   queue through ``MainScheduler`` — the main actor's executor — synchronously when the
///   source already sends there with nothing waiting, enqueued otherwise.
/// - **Shared**: the first subscriber subscribes to the source, later ones share that
///   subscription and receive the latest value at once (``ObservableType/share(replay:)`` with a
///   replay of 1); when the last one disposes, the source is let go of.
///
/// ```swift
/// let isLoading = reactor.state.map(\.isLoading).asDriver(onErrorJustReturn: false)
/// isLoading.drive(onNext: { spinner.isAnimating = $0 }).disposed(by: bag)
/// ```
///
/// For events that must not be replayed to a late subscriber (a tap, a toast), use ``Signal``.
public struct Driver<Element: Sendable>: Sendable {
  let source: Observable<Element, Never>

  /// Wraps `upstream` into a driver: shared with a replay of 1, delivered on the main queue.
  ///
  /// - Parameter upstream: The source; it cannot fail.
  init(_ upstream: some ObservableType<Element, Never>) {
    source = upstream.share(replay: 1).observe(on: MainScheduler.instance)
  }

  /// A driver that emits `element` on the main queue, then completes.
  ///
  /// - Parameter element: The value.
  /// - Returns: The driver.
  public static func just(_ element: Element) -> Driver {
    Driver(Observable<Element, Never>.just(element))
  }

  /// A driver that completes on the main queue without a value.
  ///
  /// - Returns: The driver.
  public static func empty() -> Driver {
    Driver(Observable<Element, Never>.empty())
  }

  /// A driver that never emits or completes.
  ///
  /// - Returns: The driver.
  public static func never() -> Driver {
    Driver(Observable<Element, Never>.never())
  }

  /// This driver as a stream that cannot fail, its events on the main queue.
  ///
  /// - Returns: The stream.
  public func asObservable() -> Observable<Element, Never> { source }

  /// A driver of `transform` applied to each value.
  ///
  /// - Parameter transform: Transforms a value, on the main queue.
  /// - Returns: The driver of transformed values.
  public func map<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output
  ) -> Driver<Output> {
    Driver<Output>(source.map(transform))
  }

  /// A driver of the values for which `isIncluded` returns `true`.
  ///
  /// - Parameter isIncluded: Decides, on the main queue, whether a value passes.
  /// - Returns: The driver of the values that pass.
  public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> Driver {
    Driver(source.filter(isIncluded))
  }

  /// Calls `onNext` with each value and `onCompleted` at completion, on the main queue.
  ///
  /// RxCocoa's `drive(onNext:onCompleted:onDisposed:)`.
  ///
  /// ```swift
  /// title.drive(onNext: { label.text = $0 }).disposed(by: bag)
  /// ```
  ///
  /// - Parameters:
  ///   - onNext: Called with each value.
  ///   - onCompleted: Called when the driver completes.
  ///   - onDisposed: Called once the subscription has ended, however it ended.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func drive(
    onNext: (@Sendable (Element) -> Void)? = nil,
    onCompleted: (@Sendable () -> Void)? = nil,
    onDisposed: (@Sendable () -> Void)? = nil
  ) -> any Disposable {
    source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Sends this driver's events to `observer`, on the main queue.
  ///
  /// - Parameter observer: The observer; it is sent the values and the completion.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func drive<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element, Observer.Failure == Never {
    source.subscribe(observer)
  }

  /// Makes each value the current value of each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to update, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func drive(_ relays: BehaviorRelay<Element>...) -> any Disposable {
    source.subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }

  /// Sends each value to each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func drive(_ relays: PublishRelay<Element>...) -> any Disposable {
    source.subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }

  /// Sends each value to each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func drive(_ relays: ReplayRelay<Element>...) -> any Disposable {
    source.subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }
}
