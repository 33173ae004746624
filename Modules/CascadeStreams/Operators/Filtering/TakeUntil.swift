extension ObservableType {
  /// Emits this stream's values until `other` emits a value, then completes and disposes both.
  ///
  /// `other` is subscribed first, so one that emits at once (a `just`) completes the result
  /// before any value of this stream. A completion of `other` without a value changes nothing
  /// downstream (its subscription is disposed of then); a failure of `other` fails the result.
  ///
  /// ```swift
  /// ticks.take(until: viewDidDisappear)
  /// ```
  ///
  /// - Parameter other: The stream whose first value ends this one.
  /// - Returns: A stream of this stream's values until `other` emits.
  public func take<Other: ObservableType>(until other: Other) -> Observable<Element, Failure>
  where Other.Failure == Failure {
    Observable(unchecked: { observer in
      let sink = TakeUntilSink(downstream: observer)
      let stopper = SingleAssignmentDisposable()
      guard let stopperKey = sink.upstream.insert(stopper) else { return sink }
      stopper.setDisposable(
        other.subscribe(
          sink.observer { (event: StreamEvent<Other.Element, Failure>) in
            switch event {
            case .next: sink.serialize(.completed)
            case .error(let failure): sink.serialize(.error(failure))
            // `other` can no longer end this stream: let go of it at once.
            case .completed: sink.upstream.remove(for: stopperKey)
            }
          }
        )
      )
      guard !sink.isDisposed else { return sink }
      sink.upstream.insert(self.subscribe(sink.observer { sink.serialize($0) }))
      return sink
    })
  }
}

/// The subscription behind `take(until:)`: the events of both streams are serialized.
final class TakeUntilSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: no state beyond Sink's.
}
