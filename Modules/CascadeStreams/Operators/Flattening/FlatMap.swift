extension ObservableType {
  /// Maps each value to an inner stream and emits the values of all inner streams, interleaved.
  ///
  /// Every inner stream stays subscribed until it completes; their values are serialized (calls
  /// downstream never overlap). The result fails as soon as this stream or any inner stream fails,
  /// disposing everything else, and completes once this stream and every inner stream have
  /// completed. A stream that completes, this one or an inner one, is let go of at once.
  ///
  /// ```swift
  /// userIDs.flatMap { id in api.loadUser(id) }  // every response, as it arrives
  /// ```
  ///
  /// - Parameter transform: Returns the inner stream for a value.
  /// - Returns: A stream of the values of every inner stream.
  public func flatMap<Inner: ObservableType>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> Observable<Inner.Element, Failure> where Inner.Failure == Failure {
    Observable(unchecked: { observer in
      let sink = MergeSink(downstream: observer, active: 1)
      let outer = SingleAssignmentDisposable()
      sink.upstream.insert(outer)
      outer.setDisposable(
        self.subscribe(
          sink.observer { (event: StreamEvent<Element, Failure>) in
            switch event {
            case .next(let element):
              let inner = transform(element)
              sink.addSource()
              sink.subscribeInner(inner)
            case .error(let failure):
              sink.serialize(.error(failure))
            case .completed:
              sink.sourceCompleted()
              outer.dispose()
            }
          }
        )
      )
      return sink
    })
  }
}
