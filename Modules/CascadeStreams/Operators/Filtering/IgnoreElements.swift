extension ObservableType {
  /// Drops every value, keeping only the failure or completion.
  ///
  /// The element type is kept, so the result can be merged or concatenated with streams of the
  /// same type.
  ///
  /// ```swift
  /// save.ignoreElements().concat(with: Observable.just(.saved))
  /// ```
  public func ignoreElements() -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      self.subscribe(
        AnyObserver(
          { (event: StreamEvent<Element, Failure>) in
            if !event.isTerminal { return }
            observer.on(event)
          },
          lifetime: observer.lifetime
        )
      )
    })
  }
}
