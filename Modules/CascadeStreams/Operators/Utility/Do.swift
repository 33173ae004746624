extension ObservableType {
  /// Runs side effects at each event and at the edges of each subscription, passing everything
  /// through unchanged.
  ///
  /// `onNext`, `onError` and `onCompleted` run before the event is forwarded. `onSubscribe` runs
  /// before this stream is subscribed, `onSubscribed` after `subscribe` returns, and `onDispose`
  /// when the subscription ends, whether the subscriber disposes it or the stream terminates
  /// (the subscriber then disposes its upstream). Each runs once per subscription. When the
  /// stream ends by itself, `onDispose` runs as the terminal event reaches the subscriber, so it
  /// can run before an upstream made with ``Observable/create(_:)`` has run its own teardown,
  /// which follows the terminal event; RxSwift's runs after the upstream's teardown.
  ///
  /// ```swift
  /// api.load()
  ///   .do(onSubscribe: { spinner.start() }, onDispose: { spinner.stop() })
  /// ```
  ///
  /// Like ``ObservableType/map(_:)->Streams.Map<Self,Output>``, it returns a concrete type the
  /// compiler specializes into the chain.
  ///
  /// - Parameters:
  ///   - onNext: Called with each value, before it is forwarded.
  ///   - onError: Called with the failure, before it is forwarded.
  ///   - onCompleted: Called at completion, before it is forwarded.
  ///   - onSubscribe: Called before this stream is subscribed.
  ///   - onSubscribed: Called after this stream's `subscribe` returned.
  ///   - onDispose: Called once when the subscription ends.
  /// - Returns: The same stream, with the side effects attached.
  @inlinable
  public func `do`(
    onNext: (@Sendable (Element) -> Void)? = nil,
    onError: (@Sendable (Failure) -> Void)? = nil,
    onCompleted: (@Sendable () -> Void)? = nil,
    onSubscribe: (@Sendable () -> Void)? = nil,
    onSubscribed: (@Sendable () -> Void)? = nil,
    onDispose: (@Sendable () -> Void)? = nil
  ) -> Streams.Do<Self> {
    Streams.Do(
      upstream: self,
      onNext: onNext,
      onError: onError,
      onCompleted: onCompleted,
      onSubscribe: onSubscribe,
      onSubscribed: onSubscribed,
      onDispose: onDispose
    )
  }
}

extension Streams {
  /// The stream returned by
  /// ``ObservableType/do(onNext:onError:onCompleted:onSubscribe:onSubscribed:onDispose:)``.
  public struct Do<Upstream: ObservableType>: ObservableType {
    /// The element type, that of the upstream.
    public typealias Element = Upstream.Element
    /// The failure type, that of the upstream.
    public typealias Failure = Upstream.Failure
    @usableFromInline let upstream: Upstream
    @usableFromInline let onNext: (@Sendable (Element) -> Void)?
    @usableFromInline let onError: (@Sendable (Failure) -> Void)?
    @usableFromInline let onCompleted: (@Sendable () -> Void)?
    @usableFromInline let onSubscribe: (@Sendable () -> Void)?
    @usableFromInline let onSubscribed: (@Sendable () -> Void)?
    @usableFromInline let onDispose: (@Sendable () -> Void)?

    @inlinable
    init(
      upstream: Upstream,
      onNext: (@Sendable (Element) -> Void)?,
      onError: (@Sendable (Failure) -> Void)?,
      onCompleted: (@Sendable () -> Void)?,
      onSubscribe: (@Sendable () -> Void)?,
      onSubscribed: (@Sendable () -> Void)?,
      onDispose: (@Sendable () -> Void)?
    ) {
      self.upstream = upstream
      self.onNext = onNext
      self.onError = onError
      self.onCompleted = onCompleted
      self.onSubscribe = onSubscribe
      self.onSubscribed = onSubscribed
      self.onDispose = onDispose
    }

    /// Subscribes `observer`, running the side effects around its events and subscription.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element, Observer.Failure == Failure {
      onSubscribe?()
      let subscription = upstream.subscribe(
        DoObserver(
          downstream: observer,
          onNext: onNext,
          onError: onError,
          onCompleted: onCompleted
        )
      )
      onSubscribed?()
      guard let onDispose else { return subscription }
      return Disposables.create {
        subscription.dispose()
        onDispose()
      }
    }
  }

  @usableFromInline
  struct DoObserver<Downstream: ObserverType>: ObserverType {
    @usableFromInline let downstream: Downstream
    @usableFromInline let onNext: (@Sendable (Downstream.Element) -> Void)?
    @usableFromInline let onError: (@Sendable (Downstream.Failure) -> Void)?
    @usableFromInline let onCompleted: (@Sendable () -> Void)?

    @inlinable
    init(
      downstream: Downstream,
      onNext: (@Sendable (Downstream.Element) -> Void)?,
      onError: (@Sendable (Downstream.Failure) -> Void)?,
      onCompleted: (@Sendable () -> Void)?
    ) {
      self.downstream = downstream
      self.onNext = onNext
      self.onError = onError
      self.onCompleted = onCompleted
    }

    @inlinable var lifetime: Lifetime? { downstream.lifetime }

    @inlinable
    func on(_ event: StreamEvent<Downstream.Element, Downstream.Failure>) {
      switch event {
      case .next(let element):
        onNext(element)
        return
      case .error(let failure): onError?(failure)
      case .completed: onCompleted?()
      }
      downstream.on(event)
    }

    @inlinable
    func onNext(_ element: Downstream.Element) {
      self.onNext?(element)
      downstream.onNext(element)
    }
  }
}
