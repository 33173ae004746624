/// A stream of user interface events, on the main queue, that never fails and replays nothing.
///
/// It shares one subscription among its subscribers and replays nothing to a new one. This is
/// RxCocoa's `Signal`, headless.
///
/// Make one from a stream with ``ObservableType/asSignal(onErrorJustReturn:)``,
/// ``ObservableType/asSignal(onErrorSignalWith:)`` or ``ObservableType/asSignal(onErrorRecover:)``
/// (each says what replaces a failure), or with ``ObservableType/asSignal()`` from a stream that
/// cannot fail, such as a ``PublishRelay``; consume it with ``SharedSequence/emit(onNext:onCompleted:onDisposed:)``
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
public typealias Signal<Element: Sendable> = SharedSequence<SignalSharingStrategy, Element>

extension SharedSequence where Strategy == SignalSharingStrategy {
  /// Calls `onNext` with each value and `onCompleted` at completion, on the main queue.
  ///
  /// RxCocoa's `emit(onNext:onCompleted:onDisposed:)`.
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
    subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
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

  /// Makes each value the current value of each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to update, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func emit(to relays: BehaviorRelay<Element>...) -> any Disposable {
    accept(into: relays.map { relay in { relay.accept($0) } })
  }

  /// Sends each value to each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func emit(to relays: PublishRelay<Element>...) -> any Disposable {
    accept(into: relays.map { relay in { relay.accept($0) } })
  }

  /// Sends each value to each of `relays`; the completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func emit(to relays: ReplayRelay<Element>...) -> any Disposable {
    accept(into: relays.map { relay in { relay.accept($0) } })
  }
}
