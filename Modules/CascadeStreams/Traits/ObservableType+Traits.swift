extension ObservableType {
  /// This stream as a ``Single``: its one value, emitted when the stream completes.
  ///
  /// The single fails with ``ElementCountError/noElements`` if the stream completes without a
  /// value, with ``ElementCountError/moreThanOneElement`` as soon as it emits a second value (and
  /// the stream is disposed of then), and with ``ElementCountError/failure(_:)`` if the stream
  /// fails. This is RxSwift's `asSingle()`, with its untyped `RxError` replaced by the typed
  /// ``ElementCountError``.
  ///
  /// ```swift
  /// let total = Observable.from(prices).reduce(0, +).asSingle()
  /// ```
  ///
  /// - Returns: A single of the stream's one value.
  public func asSingle() -> Single<Element, ElementCountError<Failure>> {
    Single(unchecked: cardinality(allowsEmpty: false))
  }

  /// This stream as a ``Maybe``: its value, if any, emitted when the stream completes.
  ///
  /// The maybe completes without a value if the stream does, fails with
  /// ``ElementCountError/moreThanOneElement`` as soon as the stream emits a second value (and
  /// the stream is disposed of then), and with ``ElementCountError/failure(_:)`` if the stream
  /// fails. This is RxSwift's `asMaybe()`, with a typed failure.
  ///
  /// ```swift
  /// let match = results.filter { $0.isExact }.take(1).asMaybe()
  /// ```
  ///
  /// - Returns: A maybe of the stream's value.
  public func asMaybe() -> Maybe<Element, ElementCountError<Failure>> {
    Maybe(unchecked: cardinality(allowsEmpty: true))
  }

  /// This stream as a ``Completable``: its values are ignored, its completion or failure kept.
  ///
  /// ```swift
  /// let sync = uploads.asCompletable()
  /// ```
  ///
  /// - Returns: A completable that ends as the stream does.
  public func asCompletable() -> Completable<Failure> {
    Completable(
      unchecked: Observable(unchecked: { observer in
        self.subscribe(
          AnyObserver<Element, Failure>(
            { event in
              switch event {
              case .next: break
              case .error(let failure): observer.onError(failure)
              case .completed: observer.onCompleted()
              }
            },
            lifetime: observer.lifetime
          )
        )
      })
    )
  }

  /// The stream of this stream's one value, or of none if `allowsEmpty`, emitted at completion.
  func cardinality(
    allowsEmpty: Bool
  ) -> Observable<Element, ElementCountError<Failure>> {
    Observable(unchecked: { observer in
      let sink = ElementCountSink<Element, Failure>(downstream: observer, allowsEmpty: allowsEmpty)
      sink.upstream.insert(self.subscribe(sink.observer { sink.on($0) }))
      return sink
    })
  }
}

/// The subscription behind `asSingle()` and `asMaybe()`: holds the first value until the
/// upstream completes.
package final class ElementCountSink<Element: Sendable, Failure: Error>:
  Sink<Element, ElementCountError<Failure>>, @unchecked Sendable
{
  // `package`, not internal: Swift 6.3 warns of a spurious infinite recursion for an internal
  // subclass of the package class `Sink` that declares its own initializer.

  // Safety: `element` is only touched from `on(_:)`, called by the single upstream, whose
  // events never overlap; `allowsEmpty` is immutable.
  private var element: Element?
  private let allowsEmpty: Bool

  init(downstream: AnyObserver<Element, ElementCountError<Failure>>, allowsEmpty: Bool) {
    self.allowsEmpty = allowsEmpty
    super.init(downstream: downstream)
  }

  func on(_ event: StreamEvent<Element, Failure>) {
    switch event {
    case .next(let value):
      guard element == nil else { return forwardTerminal(.error(.moreThanOneElement)) }
      element = value
    case .error(let failure):
      forwardTerminal(.error(.failure(failure)))
    case .completed:
      if let element {
        forward(.next(element))
        forwardTerminal(.completed)
      } else if allowsEmpty {
        forwardTerminal(.completed)
      } else {
        forwardTerminal(.error(.noElements))
      }
    }
  }
}
