extension ObservableType {
  /// Transforms the failure with `transform`; values and completion pass through.
  ///
  /// ```swift
  /// api.load().mapError { AppError.network($0) }
  /// ```
  ///
  /// - Parameter transform: Returns the new failure for a failure.
  /// - Returns: The same stream with transformed failures.
  public func mapError<NewFailure: Error>(
    _ transform: @escaping @Sendable (Failure) -> NewFailure
  ) -> Observable<Element, NewFailure> {
    Observable(unchecked: { observer in
      self.subscribe(
        AnyObserver(
          { (event: StreamEvent<Element, Failure>) in observer.on(event.mapError(transform)) },
          lifetime: observer.lifetime
        )
      )
    })
  }

  /// The same stream with its failure type erased to `any Error`.
  ///
  /// Useful to combine streams that fail with different error types.
  ///
  /// ```swift
  /// Observable.merge([users.eraseFailure(), posts.eraseFailure()])
  /// ```
  public func eraseFailure() -> Observable<Element, any Error> {
    mapError { $0 as any Error }
  }
}

extension ObservableType where Failure == Never {
  /// The same stream, typed as one that can fail with `failureType` (it never does).
  ///
  /// Lets a stream that cannot fail be combined with streams that can.
  ///
  /// ```swift
  /// Observable.just(1).setFailureType(to: APIError.self).concat(with: api.load())
  /// ```
  ///
  /// - Parameter failureType: The failure type of the result.
  /// - Returns: The same stream, with the failure type `NewFailure`.
  public func setFailureType<NewFailure: Error>(
    to failureType: NewFailure.Type
  ) -> Observable<Element, NewFailure> {
    Observable(unchecked: { observer in
      self.subscribe(
        AnyObserver(
          { (event: StreamEvent<Element, Never>) in
            switch event {
            case .next(let element): observer.on(.next(element))
            case .completed: observer.on(.completed)
            }
          },
          lifetime: observer.lifetime
        )
      )
    })
  }
}
