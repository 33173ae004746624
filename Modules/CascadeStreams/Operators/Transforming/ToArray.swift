extension ObservableType {
  /// Collects every value into an array, emitted as a ``Single`` once the stream completes.
  ///
  /// A stream that completes empty gives an empty array; a failure of the stream fails the
  /// single, and a stream that never ends never succeeds. This is RxSwift's `toArray()`, which
  /// also returns a `Single`.
  ///
  /// ```swift
  /// let all = try await Observable.of(1, 2, 3).toArray().value  // [1, 2, 3]
  /// ```
  ///
  /// - Returns: A single of the stream's values, in order.
  public func toArray() -> Single<[Element], Failure> {
    Single(
      unchecked: Observable(unchecked: { observer in
        let sink = ToArraySink<Element, Failure>(downstream: observer)
        sink.upstream.insert(self.subscribe(sink.observer { sink.on($0) }))
        return sink
      })
    )
  }
}

/// The subscription behind `toArray()`.
final class ToArraySink<Element: Sendable, Failure: Error>: Sink<[Element], Failure>,
  @unchecked Sendable
{
  // Safety: `elements` is only touched from `on(_:)`, called by the single upstream, whose events
  // never overlap.
  private var elements: [Element] = []

  func on(_ event: StreamEvent<Element, Failure>) {
    guard !isDisposed else { return }
    switch event {
    case .next(let element):
      elements.append(element)
    case .error(let failure):
      forwardTerminal(.error(failure))
    case .completed:
      let collected = elements
      elements = []
      forward(.next(collected))
      forwardTerminal(.completed)
    }
  }
}
