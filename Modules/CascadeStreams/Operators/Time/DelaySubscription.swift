extension ObservableType {
  /// Subscribes to this stream only once `dueTime` has passed on `scheduler`.
  ///
  /// Nothing happens until then: a cold stream starts late, a hot one is missed meanwhile.
  /// Disposing of the subscription before `dueTime` cancels the timer, and the stream is never
  /// subscribed to. This is RxSwift's `delaySubscription(_:scheduler:)` and passes its test
  /// cases.
  ///
  /// ```swift
  /// // Start polling 2 seconds after the screen appears.
  /// poll.delaySubscription(.seconds(2), scheduler: scheduler)
  /// ```
  ///
  /// - Parameters:
  ///   - dueTime: How long to wait before subscribing.
  ///   - scheduler: The scheduler that runs the timer; the subscription happens on it.
  /// - Returns: The same stream, subscribed to `dueTime` late.
  public func delaySubscription(
    _ dueTime: Duration,
    scheduler: some Scheduler
  ) -> Observable<Element, Failure> {
    Observable(unchecked: { observer in
      let sink = Sink<Element, Failure>(downstream: observer)
      sink.upstream.insert(
        scheduler.schedule(after: dueTime) {
          guard !sink.isDisposed else { return }
          sink.upstream.insert(self.subscribe(sink.observer { sink.forward($0) }))
        }
      )
      return sink
    })
  }
}
