extension ObservableType {
  /// Emits the first `count` values, then completes and disposes the upstream.
  ///
  /// A synchronous producer stops as soon as the last value is taken: the subscription's
  /// ``ObserverType/lifetime`` ends at that moment, and producers check it between elements.
  /// With `count` zero the result completes at once without subscribing. A failure or completion
  /// before `count` values passes through.
  ///
  /// ```swift
  /// Observable.from(1...).take(3)  // 1, 2, 3
  /// ```
  ///
  /// - Parameter count: How many values to emit; must not be negative.
  /// - Returns: A stream of at most `count` values.
  public func take(_ count: Int) -> Observable<Element, Failure> {
    precondition(count >= 0, "take(_:) requires a non-negative count")
    return Observable(unchecked: { observer in
      let sink = TakeSink(downstream: observer, count: count)
      if count == 0 {
        sink.forwardTerminal(.completed)
        return sink
      }
      sink.upstream.insert(self.subscribe(sink.observer { sink.on($0) }))
      return sink
    })
  }
}

/// The subscription behind `take(_:)`.
package final class TakeSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // `package`, not internal: Swift 6.3 warns of a spurious infinite recursion for an internal
  // subclass of the package class `Sink` that declares its own initializer.

  // Safety: `remaining` is only touched from `on(_:)`, called by the single upstream, whose
  // events never overlap.
  private var remaining: Int

  init(downstream: AnyObserver<Element, Failure>, count: Int) {
    remaining = count
    super.init(downstream: downstream)
  }

  func on(_ event: StreamEvent<Element, Failure>) {
    guard case .next = event else { return forward(event) }
    guard remaining > 0 else { return }
    remaining -= 1
    forward(event)
    if remaining == 0 { forwardTerminal(.completed) }
  }
}
