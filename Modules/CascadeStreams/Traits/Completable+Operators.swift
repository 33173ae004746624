extension Completable {
  /// The stream `next`, subscribed to once this completable completes; a failure of this
  /// completable fails the result, and `next` is never subscribed to.
  ///
  /// ```swift
  /// login.andThen(store.state)  // the state, once logged in
  /// ```
  ///
  /// - Parameter next: The stream that follows.
  /// - Returns: The stream of `next`'s events after this completable's completion.
  public func andThen<Next: ObservableType>(
    _ next: Next
  ) -> Observable<Next.Element, Failure> where Next.Failure == Failure {
    Observable.concat([elements(of: Next.Element.self), next.asObservable()])
  }

  /// The completable `next`, run once this one completes.
  ///
  /// ```swift
  /// migrate.andThen(seed)
  /// ```
  ///
  /// - Parameter next: The completable that follows.
  /// - Returns: A completable of both, in order.
  public func andThen(_ next: Completable) -> Completable {
    Completable(unchecked: andThen(next.source))
  }

  /// The single `next`, subscribed to once this completable completes.
  ///
  /// - Parameter next: The single that follows.
  /// - Returns: The single of `next`'s outcome after this completable's completion.
  public func andThen<Element: Sendable>(
    _ next: Single<Element, Failure>
  ) -> Single<Element, Failure> {
    Single(unchecked: andThen(next.source))
  }

  /// The maybe `next`, subscribed to once this completable completes.
  ///
  /// - Parameter next: The maybe that follows.
  /// - Returns: The maybe of `next`'s outcome after this completable's completion.
  public func andThen<Element: Sendable>(
    _ next: Maybe<Element, Failure>
  ) -> Maybe<Element, Failure> {
    Maybe(unchecked: andThen(next.source))
  }

  /// This completable, then `other`: the same as `andThen(_:)` with a completable.
  ///
  /// - Parameter other: The completable that follows.
  /// - Returns: A completable of both, in order.
  public func concat(_ other: Completable) -> Completable {
    andThen(other)
  }

  /// The completables run one after the other; the first failure fails the result.
  ///
  /// - Parameter completables: The completables, in order.
  /// - Returns: A completable of all of them.
  public static func concat(_ completables: [Completable]) -> Completable {
    Completable(unchecked: Observable.concat(completables.map(\.source)))
  }

  /// The completables run one after the other; the first failure fails the result.
  ///
  /// - Parameter completables: The completables, in order.
  /// - Returns: A completable of all of them.
  public static func concat(_ completables: Completable...) -> Completable {
    concat(completables)
  }

  /// The completables run at once; the result completes when all have, and fails with the
  /// first failure.
  ///
  /// ```swift
  /// Completable.zip(uploads)
  /// ```
  ///
  /// - Parameter completables: The completables.
  /// - Returns: A completable of all of them.
  public static func zip(_ completables: [Completable]) -> Completable {
    Completable(unchecked: Observable.merge(completables.map(\.source)))
  }

  /// The completables run at once; the result completes when all have, and fails with the
  /// first failure.
  ///
  /// - Parameter completables: The completables.
  /// - Returns: A completable of all of them.
  public static func zip(_ completables: Completable...) -> Completable {
    zip(completables)
  }

  /// This completable as a stream of `Element` (it has no values to convert).
  private func elements<Element: Sendable>(
    of _: Element.Type
  ) -> Observable<Element, Failure> {
    let source = source
    return Observable<Element, Failure>(unchecked: { observer in
      source.subscribe(
        AnyObserver<Never, Failure>(
          { event in
            switch event {
            case .error(let failure): observer.onError(failure)
            case .completed: observer.onCompleted()
            }
          },
          lifetime: observer.lifetime
        )
      )
    })
  }
}
