extension ObservableType {
  /// Replaces a failure with the stream `handler` returns for it.
  ///
  /// Values and completion pass through. When this stream fails, `handler` is called with the
  /// failure and the stream it returns is subscribed in its place (this stream is let go of
  /// first); its events, including its own failure (of the new failure type), follow.
  ///
  /// ```swift
  /// api.load().catch { error in Observable.just(.failed(error)) }
  /// ```
  ///
  /// - Parameter handler: Returns the stream that continues after a failure.
  /// - Returns: A stream of this stream's events, continued after a failure by the recovery stream's.
  public func `catch`<Recovery: ObservableType>(
    _ handler: @escaping @Sendable (Failure) -> Recovery
  ) -> Observable<Element, Recovery.Failure> where Recovery.Element == Element {
    Observable(unchecked: { observer in
      let sink = CatchSink(downstream: observer)
      let source = SingleAssignmentDisposable()
      sink.upstream.insert(source)
      source.setDisposable(
        self.subscribe(
          sink.observer { (event: StreamEvent<Element, Failure>) in
            switch event {
            case .next(let element):
              sink.forward(.next(element))
            case .completed:
              sink.forward(.completed)
            case .error(let failure):
              guard !sink.isDisposed else { return }
              source.dispose()
              let recovery = handler(failure)
              sink.upstream.insert(recovery.subscribe(sink.observer { sink.forward($0) }))
            }
          }
        )
      )
      return sink
    })
  }

  /// Replaces a failure with `element`, then completes; the result cannot fail.
  ///
  /// ```swift
  /// api.loadCount().catchAndReturn(0)
  /// ```
  ///
  /// - Parameter element: The value emitted in place of a failure.
  /// - Returns: A stream that cannot fail.
  public func catchAndReturn(_ element: Element) -> Observable<Element, Never> {
    self.catch { _ in Observable<Element, Never>.just(element) }
  }

  /// Replaces a failure with `element`, then completes; the result cannot fail.
  ///
  /// Combine's spelling of ``catchAndReturn(_:)``.
  ///
  /// - Parameter element: The value emitted in place of a failure.
  /// - Returns: A stream that cannot fail.
  public func replaceError(with element: Element) -> Observable<Element, Never> {
    catchAndReturn(element)
  }
}

/// The subscription behind `catch`: the upstream, then (after a failure) the recovery stream,
/// one after the other.
final class CatchSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: no state beyond Sink's.
}
