extension Single {
  /// A single of `transform` applied to this single's value.
  ///
  /// ```swift
  /// Single<Int, Never>.just(1).map { $0 * 2 }  // succeeds with 2
  /// ```
  ///
  /// - Parameter transform: Transforms the value.
  /// - Returns: The transformed single.
  public func map<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output
  ) -> Single<Output, Failure> {
    Single<Output, Failure>(unchecked: source.map(transform).asObservable())
  }

  /// A maybe of `transform` applied to this single's value, empty when `transform` returns
  /// `nil`.
  ///
  /// ```swift
  /// Single<String, Never>.just("42").compactMap(Int.init)  // a maybe of 42
  /// ```
  ///
  /// - Parameter transform: Transforms the value, or returns `nil` to drop it.
  /// - Returns: The maybe.
  public func compactMap<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output?
  ) -> Maybe<Output, Failure> {
    Maybe<Output, Failure>(unchecked: source.compactMap(transform).asObservable())
  }

  /// The single that `transform` makes of this single's value.
  ///
  /// ```swift
  /// userID.flatMap { id in api.user(id: id) }  // Single<User, HTTPError>
  /// ```
  ///
  /// - Parameter transform: Makes the next single from the value.
  /// - Returns: The single made by `transform`.
  public func flatMap<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Single<Output, Failure>
  ) -> Single<Output, Failure> {
    Single<Output, Failure>(unchecked: source.flatMap { transform($0).source })
  }

  /// The maybe that `transform` makes of this single's value.
  ///
  /// - Parameter transform: Makes a maybe from the value.
  /// - Returns: The maybe made by `transform`.
  public func flatMapMaybe<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Maybe<Output, Failure>
  ) -> Maybe<Output, Failure> {
    Maybe<Output, Failure>(unchecked: source.flatMap { transform($0).source })
  }

  /// The completable that `transform` makes of this single's value.
  ///
  /// ```swift
  /// document.flatMapCompletable { store.save($0) }
  /// ```
  ///
  /// - Parameter transform: Makes a completable from the value.
  /// - Returns: The completable made by `transform`.
  public func flatMapCompletable(
    _ transform: @escaping @Sendable (Element) -> Completable<Failure>
  ) -> Completable<Failure> {
    Completable(unchecked: source.flatMap { transform($0).source })
  }

  /// This single as a maybe that always has a value.
  ///
  /// - Returns: The maybe.
  public func asMaybe() -> Maybe<Element, Failure> {
    Maybe(unchecked: source)
  }

  /// This single as a completable: its value is dropped, its failure kept.
  ///
  /// - Returns: The completable.
  public func asCompletable() -> Completable<Failure> {
    source.asCompletable()
  }

  /// A single of `resultSelector` applied to the values of this single and `other`, once both
  /// have succeeded; it fails as soon as either fails.
  ///
  /// ```swift
  /// user.zip(settings) { Profile(user: $0, settings: $1) }
  /// ```
  ///
  /// - Parameters:
  ///   - other: The other single.
  ///   - resultSelector: Combines the two values; what it throws fails the result.
  /// - Returns: The combined single.
  public func zip<Other: Sendable, Result: Sendable>(
    _ other: Single<Other, Failure>,
    _ resultSelector: @escaping @Sendable (Element, Other) throws(Failure) -> Result
  ) -> Single<Result, Failure> {
    Single<Result, Failure>(unchecked: source.zip(other.source, resultSelector))
  }

  /// A single of the pair of values of this single and `other`.
  ///
  /// - Parameter other: The other single.
  /// - Returns: The single of both values.
  public func zip<Other: Sendable>(
    _ other: Single<Other, Failure>
  ) -> Single<(Element, Other), Failure> {
    zip(other) { ($0, $1) }
  }
}
