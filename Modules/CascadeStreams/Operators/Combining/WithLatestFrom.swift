extension ObservableType {
  /// Combines each value of this stream with the latest value of `other`.
  ///
  /// Only this stream's values trigger an emission; a value that arrives before `other` has
  /// emitted anything is dropped. `other` is subscribed first, so a stream that replays a current
  /// value (a `BehaviorSubject`) provides it before this stream's first value. The result
  /// completes when this stream completes (not when `other` does, whose latest value stays
  /// available, and which is let go of at once) and fails as soon as either fails.
  ///
  /// ```swift
  /// submitTaps.withLatestFrom(formState) { _, form in form.payload }
  /// ```
  ///
  /// - Parameters:
  ///   - other: The stream whose latest value is sampled.
  ///   - resultSelector: Combines a value of this stream with the latest value of `other`.
  /// - Returns: A stream of combined values, one per value of this stream once `other` has emitted.
  public func withLatestFrom<Other: ObservableType, Result: Sendable>(
    _ other: Other,
    resultSelector: @escaping @Sendable (Element, Other.Element) -> Result
  ) -> Observable<Result, Failure> where Other.Failure == Failure {
    Observable(unchecked: { observer in
      let sink = WithLatestFromSink<Element, Other.Element, Result, Failure>(
        downstream: observer,
        resultSelector: resultSelector
      )
      sink.run(self, other)
      return sink
    })
  }

  /// Emits the latest value of `other` each time this stream emits.
  ///
  /// The same as `withLatestFrom(other) { $1 }`; see
  /// ``withLatestFrom(_:resultSelector:)``.
  ///
  /// ```swift
  /// refreshTaps.withLatestFrom(currentQuery)  // the query at each tap
  /// ```
  ///
  /// - Parameter other: The stream whose latest value is sampled.
  /// - Returns: A stream of `other`'s latest value, one per value of this stream once `other` has emitted.
  public func withLatestFrom<Other: ObservableType>(
    _ other: Other
  ) -> Observable<Other.Element, Failure> where Other.Failure == Failure {
    withLatestFrom(other) { $1 }
  }
}

/// The subscription behind `withLatestFrom`: the latest value of the sampled stream, and the
/// events of both streams serialized downstream.
package final class WithLatestFromSink<
  Element: Sendable,
  Other: Sendable,
  Result: Sendable,
  Failure: Error
>: Sink<Result, Failure>, @unchecked Sendable {
  // `package`, not internal: Swift 6.3 warns of a spurious infinite recursion for an internal
  // subclass of the package class `Sink` that declares its own initializer.

  // Safety: `latest` is read and written only with `lock` held; `resultSelector` is immutable.
  private let resultSelector: @Sendable (Element, Other) -> Result
  private var latest: Other?

  init(
    downstream: AnyObserver<Result, Failure>,
    resultSelector: @escaping @Sendable (Element, Other) -> Result
  ) {
    self.resultSelector = resultSelector
    super.init(downstream: downstream)
  }

  func run<Source: ObservableType, Sampled: ObservableType>(_ source: Source, _ other: Sampled)
  where
    Source.Element == Element,
    Source.Failure == Failure,
    Sampled.Element == Other,
    Sampled.Failure == Failure
  {
    let sampled = SingleAssignmentDisposable()
    upstream.insert(sampled)
    sampled.setDisposable(
      other.subscribe(
        observer { [self] (event: StreamEvent<Other, Failure>) in
          switch event {
          case .next(let value): lock.withLock { latest = value }
          case .error(let failure): serialize(.error(failure))
          case .completed: sampled.dispose()
          }
        }
      )
    )
    guard !isDisposed else { return }
    upstream.insert(
      source.subscribe(
        observer { [self] (event: StreamEvent<Element, Failure>) in
          switch event {
          case .next(let element):
            guard let value = lock.withLock({ latest }) else { return }
            serialize(.next(resultSelector(element, value)))
          case .error(let failure):
            serialize(.error(failure))
          case .completed:
            serialize(.completed)
          }
        }
      )
    )
  }
}
