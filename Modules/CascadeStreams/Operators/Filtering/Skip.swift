extension ObservableType {
  /// Drops the first `count` values, then emits the rest.
  ///
  /// ```swift
  /// Observable.of(1, 2, 3, 4).skip(2)  // 3, 4
  /// ```
  ///
  /// - Parameter count: How many values to drop; must not be negative.
  /// - Returns: A stream of the values after the first `count`.
  public func skip(_ count: Int) -> Observable<Element, Failure> {
    precondition(count >= 0, "skip(_:) requires a non-negative count")
    return Observable(unchecked: { observer in
      let sink = SkipSink(downstream: observer, count: count)
      sink.upstream.insert(self.subscribe(sink.observer { sink.on($0) }))
      return sink
    })
  }
}

/// The subscription behind `skip(_:)`.
package final class SkipSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
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
    if case .next = event, remaining > 0 {
      remaining -= 1
      return
    }
    forward(event)
  }
}
