/// How a ``SharedSequence`` shares its source among its subscribers: what a late subscriber
/// receives of the past.
public protocol SharingStrategy: Sendable {
  /// How many of the latest values a new subscriber receives at once (0 or 1).
  static var replay: Int { get }
}

/// ``Driver``'s sharing: the latest value is replayed to each new subscriber.
public enum DriverSharingStrategy: SharingStrategy {
  /// One: the latest value.
  public static var replay: Int { 1 }
}

/// ``Signal``'s sharing: nothing is replayed.
public enum SignalSharingStrategy: SharingStrategy {
  /// None.
  public static var replay: Int { 0 }
}

/// A stream on the main queue that never fails and shares one subscription to its source among
/// its subscribers, replaying what `Strategy` says to each new one: the type behind ``Driver``
/// and ``Signal``, as RxCocoa's `SharedSequence` is behind its own.
///
/// - **Never fails**: a failure of the source is replaced as the conversion that made it says
///   (`asDriver(onErrorJustReturn:)`, `asSignal(onErrorRecover:)`, …).
/// - **On the main queue**: every event, a replayed value included, is delivered on the main
///   queue through ``MainScheduler`` — the main actor's executor — synchronously when the
///   source already sends there with nothing waiting, enqueued otherwise.
/// - **Shared**: the first subscriber subscribes to the source, later ones share that
///   subscription (``ObservableType/share(replay:)`` with the strategy's replay); when the last
///   one disposes, the source is let go of.
///
/// ```swift
/// let title: Driver<String> = reactor.state.map(\.title).asDriver(onErrorJustReturn: "")
/// title.drive(onNext: { label.text = $0 }).disposed(by: bag)
/// ```
public struct SharedSequence<Strategy: SharingStrategy, Element: Sendable>: Sendable {
  let source: Observable<Element, Never>

  /// Wraps `upstream`: shared with the strategy's replay, delivered on the main queue.
  ///
  /// - Parameter upstream: The source; it cannot fail.
  init(_ upstream: some ObservableType<Element, Never>) {
    source = upstream.share(replay: Strategy.replay).observe(on: MainScheduler.instance)
  }

  /// A sequence that emits `element` on the main queue, then completes.
  ///
  /// - Parameter element: The value.
  /// - Returns: The sequence.
  public static func just(_ element: Element) -> SharedSequence {
    SharedSequence(Observable<Element, Never>.just(element))
  }

  /// A sequence that completes on the main queue without a value.
  ///
  /// - Returns: The sequence.
  public static func empty() -> SharedSequence {
    SharedSequence(Observable<Element, Never>.empty())
  }

  /// A sequence that never emits or completes.
  ///
  /// - Returns: The sequence.
  public static func never() -> SharedSequence {
    SharedSequence(Observable<Element, Never>.never())
  }

  /// This sequence as a stream that cannot fail, its events on the main queue.
  ///
  /// - Returns: The stream.
  public func asObservable() -> Observable<Element, Never> { source }

  /// A sequence of `transform` applied to each value, shared the same way.
  ///
  /// - Parameter transform: Transforms a value, on the main queue.
  /// - Returns: The sequence of transformed values.
  public func map<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output
  ) -> SharedSequence<Strategy, Output> {
    SharedSequence<Strategy, Output>(source.map(transform))
  }

  /// A sequence of the values for which `isIncluded` returns `true`, shared the same way.
  ///
  /// - Parameter isIncluded: Decides, on the main queue, whether a value passes.
  /// - Returns: The sequence of the values that pass.
  public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> SharedSequence {
    SharedSequence(source.filter(isIncluded))
  }

  /// Subscribes with closures: what `drive` and `emit` do.
  func subscribe(
    onNext: (@Sendable (Element) -> Void)?,
    onCompleted: (@Sendable () -> Void)?,
    onDisposed: (@Sendable () -> Void)?
  ) -> any Disposable {
    source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Sends each value to every relay with `accept`; the completion is ignored.
  func accept(into relays: [@Sendable (Element) -> Void]) -> any Disposable {
    source.subscribe(onNext: { element in for accept in relays { accept(element) } })
  }
}
