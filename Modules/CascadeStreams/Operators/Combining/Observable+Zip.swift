extension Observable where Element == any Sendable {
  /// Pairs the values of `first` and `second` by position: RxSwift's `Observable.zip(_:_:)`.
  ///
  /// The static spelling of `zip(_:)`, for code written against RxSwift; see
  /// `zip(_:_:)` for the rules. As in RxSwift, the type it is called on names
  /// no element type (`Observable.zip(a, b)`); the result's elements are the pairs.
  ///
  /// ```swift
  /// Observable.zip(api.user().asObservable(), api.settings().asObservable())
  ///   .subscribe(onNext: { user, settings in show(user, settings) })
  /// ```
  ///
  /// - Parameters:
  ///   - first: The first source.
  ///   - second: The second source.
  /// - Returns: A stream of the pairs of values at one position.
  public static func zip<First: ObservableType, Second: ObservableType>(
    _ first: First,
    _ second: Second
  ) -> Observable<(First.Element, Second.Element), Failure>
  where First.Failure == Failure, Second.Failure == Failure {
    first.zip(second)
  }

  /// Triples the values of three sources by position: RxSwift's `Observable.zip(_:_:_:)`.
  ///
  /// The static spelling of `zip(_:_:)`, for code written against RxSwift.
  ///
  /// - Parameters:
  ///   - first: The first source.
  ///   - second: The second source.
  ///   - third: The third source.
  /// - Returns: A stream of the triples of values at one position.
  public static func zip<First: ObservableType, Second: ObservableType, Third: ObservableType>(
    _ first: First,
    _ second: Second,
    _ third: Third
  ) -> Observable<(First.Element, Second.Element, Third.Element), Failure>
  where First.Failure == Failure, Second.Failure == Failure, Third.Failure == Failure {
    first.zip(second, third)
  }
}

extension Observable {
  /// Combines the values of `first` and `second` by position with `resultSelector`: RxSwift's
  /// `Observable.zip(_:_:resultSelector:)`.
  ///
  /// The static spelling of `zip(_:_:)`, for code written against RxSwift. Unlike RxSwift's,
  /// `resultSelector` cannot throw: with a throwing closure the type it is called on could not
  /// infer its failure type; call `first.zip(second) { … }`, whose selector throws the stream's
  /// `Failure`, for one that must.
  ///
  /// ```swift
  /// Observable.zip(firstPage, secondPage) { $0 + $1 }
  /// ```
  ///
  /// - Parameters:
  ///   - first: The first source.
  ///   - second: The second source.
  ///   - resultSelector: Combines the values at one position.
  /// - Returns: A stream of the combined values.
  public static func zip<First: ObservableType, Second: ObservableType>(
    _ first: First,
    _ second: Second,
    resultSelector: @escaping @Sendable (First.Element, Second.Element) -> Element
  ) -> Observable
  where First.Failure == Failure, Second.Failure == Failure {
    first.zip(second, resultSelector)
  }
}
