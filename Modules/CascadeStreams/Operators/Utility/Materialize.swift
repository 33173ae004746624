extension ObservableType {
  /// Turns every event, terminal ones included, into a value; the result then completes and
  /// cannot fail.
  ///
  /// ```swift
  /// api.load().materialize()  // next(.next(data)), next(.completed), completed
  /// ```
  public func materialize() -> Observable<StreamEvent<Element, Failure>, Never> {
    Observable(unchecked: { observer in
      self.subscribe(
        AnyObserver(
          { (event: StreamEvent<Element, Failure>) in
            observer.on(.next(event))
            if event.isTerminal { observer.on(.completed) }
          },
          lifetime: observer.lifetime
        )
      )
    })
  }
}

extension ObservableType where Failure == Never {
  /// Turns values that are events back into the events they describe: the inverse of
  /// ``materialize()``.
  ///
  /// The first value that is a terminal event ends the result with that event and disposes the
  /// upstream; if the upstream completes first, so does the result.
  ///
  /// ```swift
  /// events.dematerialize()  // next(1), error(e) → 1, then failure e
  /// ```
  public func dematerialize<Value: Sendable, ValueFailure: Error>()
    -> Observable<Value, ValueFailure>
  where Element == StreamEvent<Value, ValueFailure> {
    Observable(unchecked: { observer in
      let sink = DematerializeSink(downstream: observer)
      sink.upstream.insert(
        self.subscribe(
          sink.observer { (event: StreamEvent<StreamEvent<Value, ValueFailure>, Never>) in
            switch event {
            case .next(let inner): sink.forward(inner)
            case .completed: sink.forward(.completed)
            }
          }
        )
      )
      return sink
    })
  }
}

/// The subscription behind `dematerialize()`; it exists to dispose the upstream when a
/// dematerialized terminal event ends the stream.
final class DematerializeSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: no state beyond Sink's.
}
