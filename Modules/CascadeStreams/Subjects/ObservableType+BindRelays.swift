extension ObservableType where Failure == Never {
  /// Sends every value of this stream to each of `relays`; the stream's completion is ignored.
  ///
  /// A relay never terminates, so when the stream completes the relays simply stop receiving
  /// from it. RxRelay's `bind(to:)` takes a stream that can fail and stops the program on a
  /// failure in debug builds; here only a stream that cannot fail (`Failure == Never`) can be
  /// bound, so the compiler rules the failure out.
  ///
  /// ```swift
  /// refreshButton.taps.map { .refresh }.bind(to: actions).disposed(by: bag)
  /// ```
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the binding.
  @discardableResult
  public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
    subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }

  /// Sends every value of this stream, as an optional, to each of `relays`; the stream's
  /// completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the binding.
  @discardableResult
  public func bind(to relays: PublishRelay<Element?>...) -> any Disposable {
    subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }

  /// Makes every value of this stream the current value of each of `relays`; the stream's
  /// completion is ignored.
  ///
  /// ```swift
  /// reactor.state.map(\.isLoading).bind(to: isLoading).disposed(by: bag)
  /// ```
  ///
  /// - Parameter relays: The relays to update, in this order.
  /// - Returns: A disposable that ends the binding.
  @discardableResult
  public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
    subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }

  /// Makes every value of this stream, as an optional, the current value of each of `relays`;
  /// the stream's completion is ignored.
  ///
  /// - Parameter relays: The relays to update, in this order.
  /// - Returns: A disposable that ends the binding.
  @discardableResult
  public func bind(to relays: BehaviorRelay<Element?>...) -> any Disposable {
    subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }

  /// Sends every value of this stream to each of `relays`, which keep it for replay; the
  /// stream's completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the binding.
  @discardableResult
  public func bind(to relays: ReplayRelay<Element>...) -> any Disposable {
    subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }

  /// Sends every value of this stream, as an optional, to each of `relays`, which keep it for
  /// replay; the stream's completion is ignored.
  ///
  /// - Parameter relays: The relays to send values to, in this order.
  /// - Returns: A disposable that ends the binding.
  @discardableResult
  public func bind(to relays: ReplayRelay<Element?>...) -> any Disposable {
    subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
  }
}
