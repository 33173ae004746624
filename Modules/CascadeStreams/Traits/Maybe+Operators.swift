extension Maybe {
  /// A maybe of `transform` applied to this maybe's value, if any.
  ///
  /// ```swift
  /// Maybe<Int, Never>.just(1).map { $0 * 2 }  // a maybe of 2
  /// ```
  ///
  /// - Parameter transform: Transforms the value.
  /// - Returns: The transformed maybe.
  public func map<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output
  ) -> Maybe<Output, Failure> {
    Maybe<Output, Failure>(unchecked: source.map(transform).asObservable())
  }

  /// A maybe of `transform` applied to this maybe's value, empty when there is none or
  /// `transform` returns `nil`.
  ///
  /// - Parameter transform: Transforms the value, or returns `nil` to drop it.
  /// - Returns: The maybe.
  public func compactMap<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output?
  ) -> Maybe<Output, Failure> {
    Maybe<Output, Failure>(unchecked: source.compactMap(transform).asObservable())
  }

  /// The maybe that `transform` makes of this maybe's value; empty if this one is.
  ///
  /// - Parameter transform: Makes the next maybe from the value.
  /// - Returns: The maybe made by `transform`.
  public func flatMap<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Maybe<Output, Failure>
  ) -> Maybe<Output, Failure> {
    Maybe<Output, Failure>(unchecked: source.flatMap { transform($0).source })
  }

  /// A single of this maybe's value, or of `defaultValue` when it completes empty.
  ///
  /// ```swift
  /// cachedPage.ifEmpty(default: .placeholder)  // Single<Page, Never>
  /// ```
  ///
  /// - Parameter defaultValue: The value when this maybe is empty.
  /// - Returns: The single.
  public func ifEmpty(default defaultValue: Element) -> Single<Element, Failure> {
    Single(unchecked: switchIfEmpty(Observable.just(defaultValue)))
  }

  /// This maybe, or `other` when this one completes empty.
  ///
  /// - Parameter other: The maybe subscribed to when this one is empty.
  /// - Returns: The maybe.
  public func ifEmpty(switchTo other: Maybe) -> Maybe {
    Maybe(unchecked: switchIfEmpty(other.source))
  }

  /// This maybe's value, or the single `other` when this one completes empty.
  ///
  /// ```swift
  /// cachedUser.ifEmpty(switchTo: api.user(id: 42))
  /// ```
  ///
  /// - Parameter other: The single subscribed to when this maybe is empty.
  /// - Returns: A single.
  public func ifEmpty(switchTo other: Single<Element, Failure>) -> Single<Element, Failure> {
    Single(unchecked: switchIfEmpty(other.source))
  }

  /// A maybe of `resultSelector` applied to the values of this maybe and `other`, if both have
  /// one; empty if either is, failed as soon as either fails.
  ///
  /// - Parameters:
  ///   - other: The other maybe.
  ///   - resultSelector: Combines the two values; what it throws fails the result.
  /// - Returns: The combined maybe.
  public func zip<Other: Sendable, Result: Sendable>(
    _ other: Maybe<Other, Failure>,
    _ resultSelector: @escaping @Sendable (Element, Other) throws(Failure) -> Result
  ) -> Maybe<Result, Failure> {
    Maybe<Result, Failure>(unchecked: source.zip(other.source, resultSelector))
  }

  /// A maybe of the pair of values of this maybe and `other`, if both have one.
  ///
  /// - Parameter other: The other maybe.
  /// - Returns: The maybe of both values.
  public func zip<Other: Sendable>(
    _ other: Maybe<Other, Failure>
  ) -> Maybe<(Element, Other), Failure> {
    zip(other) { ($0, $1) }
  }

  /// This maybe's stream, continued by `fallback` if it completes without a value.
  private func switchIfEmpty(
    _ fallback: Observable<Element, Failure>
  ) -> Observable<Element, Failure> {
    let source = source
    return Observable<Element, Failure>.create { observer in
      let subscriptions = CompositeDisposable()
      let hasValue = Lifetime()
      subscriptions.insert(
        source.subscribe(
          onNext: { element in
            hasValue.end()
            observer.onNext(element)
          },
          onError: { observer.onError($0) },
          onCompleted: {
            if hasValue.hasEnded {
              observer.onCompleted()
            } else {
              subscriptions.insert(fallback.subscribe(observer))
            }
          }
        )
      )
      return subscriptions
    }
  }
}
