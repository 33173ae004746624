/// A stream for driving user interface, on the main queue, that never fails and replays its latest
/// value.
///
/// It shares one subscription among its subscribers and replays the latest value to each new
/// one. This is RxCocoa's `Driver`, headless.
///
/// Make one from a stream with ``ObservableType/asDriver(onErrorJustReturn:)``,
/// ``ObservableType/asDriver(onErrorDriveWith:)`` or ``ObservableType/asDriver(onErrorRecover:)``
/// (each says what replaces a failure), or with ``ObservableType/asDriver()`` from a stream that
/// cannot fail, such as a ``BehaviorRelay``; consume it with ``SharedSequence/drive(onNext:onCompleted:onDisposed:)``
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
public typealias Driver<Element: Sendable> = SharedSequence<DriverSharingStrategy, Element>

extension SharedSequence where Strategy == DriverSharingStrategy {
  /// Calls `onNext` with each value and `onCompleted` at completion, on the main queue.
  ///
  /// RxCocoa's `drive(onNext:onCompleted:onDisposed:)`.
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
    subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
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
    accept(into: relays.map { relay in { relay.accept($0) } })
  }

  /// Sends each value to each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func drive(_ relays: PublishRelay<Element>...) -> any Disposable {
    accept(into: relays.map { relay in { relay.accept($0) } })
  }

  /// Sends each value to each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func drive(_ relays: ReplayRelay<Element>...) -> any Disposable {
    accept(into: relays.map { relay in { relay.accept($0) } })
  }
}
