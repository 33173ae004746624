extension ObservableType {
  /// Emits `elements` first, then this stream's events.
  ///
  /// The elements are emitted synchronously on the subscribing thread, before this stream is
  /// subscribed; a subscriber that ends early (a `take(1)`) stops them, and then this stream is
  /// never subscribed.
  ///
  /// ```swift
  /// searchResults.startWith([])  // an empty list until the first results
  /// ```
  ///
  /// - Parameter elements: The values emitted before this stream's.
  /// - Returns: A stream of `elements`, then this stream's events.
  public func startWith(_ elements: Element...) -> Observable<Element, Failure> {
    startingWith(elements)
  }

  /// What `startWith(_:)` and `prepend(_:)` share: `elements` (an array), then this stream's
  /// events.
  func startingWith(_ elements: [Element]) -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      let lifetime = observer.lifetime
      for element in elements {
        if lifetime?.hasEnded == true { return Disposables.empty }
        observer.on(.next(element))
      }
      if lifetime?.hasEnded == true { return Disposables.empty }
      return self.subscribe(observer)
    })
  }
}
