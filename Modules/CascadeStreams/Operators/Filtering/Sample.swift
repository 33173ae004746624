extension ObservableType {
  /// Emits the latest value of this stream each time `sampler` emits, if a new one arrived since
  /// the previous sample (or `defaultValue`, if given, when none did).
  ///
  /// Values between two ticks of `sampler` are dropped except the last. When this stream
  /// completes it is let go of at once, and the result completes at the next tick (after
  /// emitting the value still pending). A completion of `sampler` counts as a last tick: the
  /// pending value is emitted, and the result completes, since no sample can come any more.
  /// A failure of either stream fails the result.
  ///
  /// This is RxSwift's `sample(_:defaultValue:)` and passes its test cases. It differs in one
  /// case those do not cover: RxSwift's result goes on, silent, after the sampler completes
  /// while the source has not; here it completes. A sampler that cannot fail, such as a timer,
  /// is matched to this stream's failure with ``ObservableType/setFailureType(to:)``.
  ///
  /// ```swift
  /// // The position at most once a second.
  /// positions.sample(Observable.interval(.seconds(1), scheduler: scheduler)
  ///   .setFailureType(to: LocationError.self))
  /// ```
  ///
  /// - Parameters:
  ///   - sampler: The stream whose values and completion are the sampling ticks.
  ///   - defaultValue: What a tick emits when no new value arrived since the previous one;
  ///     `nil` to emit nothing then.
  /// - Returns: A stream of the sampled values.
  public func sample<Sampler: ObservableType>(
    _ sampler: Sampler,
    defaultValue: Element? = nil
  ) -> Observable<Element, Failure> where Sampler.Failure == Failure {
    Observable(unchecked: { observer in
      let sink = SampleSink(downstream: observer, defaultValue: defaultValue)
      sink.upstream.insert(sink.sourceSubscription)
      sink.sourceSubscription.setDisposable(self.subscribe(sink.observer { sink.onSource($0) }))
      sink.upstream.insert(
        sampler.subscribe(
          sink.observer { (event: StreamEvent<Sampler.Element, Failure>) in
            sink.onTick(event.map { _ in () })
          }
        )
      )
      return sink
    })
  }
}

/// The subscription behind `sample(_:defaultValue:)`.
///
/// The source and the sampler deliver on their own threads; each decides what to emit under
/// `lock` and enqueues it in the same critical section (``Sink/enqueueEvent(_:)``), so
/// deliveries keep the order of the decisions.
package final class SampleSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // `package`, not internal: Swift 6.3 warns of a spurious infinite recursion for an internal
  // subclass of the package class `Sink` that declares its own initializer.

  // Safety: `latest` and `sourceEnded` are read and written only with `lock` held;
  // `defaultValue` and `sourceSubscription` are immutable.
  private var latest: Element?
  private var sourceEnded = false
  private let defaultValue: Element?
  let sourceSubscription = SingleAssignmentDisposable()

  init(downstream: AnyObserver<Element, Failure>, defaultValue: Element?) {
    self.defaultValue = defaultValue
    super.init(downstream: downstream)
  }

  func onSource(_ event: StreamEvent<Element, Failure>) {
    var ended = false
    lock.withLock {
      switch event {
      case .next(let element):
        latest = element
      case .error(let failure):
        enqueueEvent(.error(failure))
      case .completed:
        sourceEnded = true
        ended = true
      }
    }
    if ended { sourceSubscription.dispose() }
    drainEvents()
  }

  func onTick(_ event: StreamEvent<Void, Failure>) {
    lock.withLock {
      if case .error(let failure) = event { return enqueueEvent(.error(failure)) }
      if let element = latest ?? defaultValue {
        latest = nil
        enqueueEvent(.next(element))
      }
      if sourceEnded || event.isTerminal { enqueueEvent(.completed) }
    }
    drainEvents()
  }
}
