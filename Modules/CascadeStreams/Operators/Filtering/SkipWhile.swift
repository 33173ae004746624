extension ObservableType {
  /// Drops values while `predicate` holds, then emits the first value for which it does not and
  /// every value after it.
  ///
  /// ```swift
  /// Observable.of(1, 2, 5, 1).skip(while: { $0 < 3 })  // 5, 1
  /// ```
  ///
  /// - Parameter predicate: Whether to keep dropping; not called again once it returns `false`.
  /// - Returns: A stream of the values from the first one that fails `predicate` on.
  public func skip(
    while predicate: @escaping @Sendable (Element) -> Bool
  )
    -> Observable<Element, Failure>
  {
    Observable(unchecked: { observer in
      let sink = SkipWhileSink(downstream: observer, predicate: predicate)
      sink.upstream.insert(self.subscribe(sink.observer { sink.on($0) }))
      return sink
    })
  }
}

/// The subscription behind `skip(while:)`.
package final class SkipWhileSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // `package`, not internal: Swift 6.3 warns of a spurious infinite recursion for an internal
  // subclass of the package class `Sink` that declares its own initializer.

  // Safety: `skipping` is only touched from `on(_:)`, called by the single upstream, whose
  // events never overlap; `predicate` is immutable.
  private let predicate: @Sendable (Element) -> Bool
  private var skipping = true

  init(downstream: AnyObserver<Element, Failure>, predicate: @escaping @Sendable (Element) -> Bool)
  {
    self.predicate = predicate
    super.init(downstream: downstream)
  }

  func on(_ event: StreamEvent<Element, Failure>) {
    if skipping, case .next(let element) = event {
      guard !predicate(element) else { return }
      skipping = false
    }
    forward(event)
  }
}
