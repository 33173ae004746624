extension ObservableType {
  /// Emits values while `predicate` holds, then completes at the first value for which it does
  /// not (that value is not emitted) and disposes the upstream.
  ///
  /// ```swift
  /// Observable.of(1, 2, 5, 1).take(while: { $0 < 3 })  // 1, 2
  /// ```
  ///
  /// - Parameter predicate: Whether to keep going with a value.
  /// - Returns: A stream of the leading values that satisfy `predicate`.
  public func take(
    while predicate: @escaping @Sendable (Element) -> Bool
  )
    -> Observable<Element, Failure>
  {
    Observable(unchecked: { observer in
      let sink = TakeWhileSink(downstream: observer)
      sink.upstream.insert(
        self.subscribe(
          sink.observer { (event: StreamEvent<Element, Failure>) in
            if case .next(let element) = event, !predicate(element) {
              sink.forwardTerminal(.completed)
            } else {
              sink.forward(event)
            }
          }
        )
      )
      return sink
    })
  }
}

/// The subscription behind `take(while:)`; its state is the sink's own lifetime.
final class TakeWhileSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: no state beyond Sink's.
}
