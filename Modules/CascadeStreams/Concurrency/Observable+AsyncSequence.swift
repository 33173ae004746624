extension Observable {
  /// Creates a stream that emits the elements of an `AsyncSequence`, then completes or fails as
  /// the sequence does.
  ///
  /// Each subscription starts a `Task` that iterates `sequence` and sends each element; the end
  /// of the sequence completes the stream, and an error it throws fails the stream with that
  /// error, keeping its type: `Failure` is the sequence's `Failure` (`Never` for `AsyncStream` and
  /// for the non-throwing sequences of swift-async-algorithms, `any Error` for
  /// `AsyncThrowingStream`, the stream's own `Failure` for ``ObservableValues``).
  ///
  /// Disposing the subscription cancels the task; the iteration stops at the next element at the
  /// latest, and cancellation is not an error: the stream delivers nothing more. The task counts
  /// in ``Resources/total`` until the iteration has stopped.
  ///
  /// Operators of swift-async-algorithms compose through this bridge and
  /// ``ObservableType/values``:
  ///
  /// ```swift
  /// import AsyncAlgorithms
  ///
  /// let batches = Observable(clicks.values.chunks(ofCount: 10))  // Observable<[Click], Never>
  /// ```
  ///
  /// This is an initializer rather than an overload of `Observable.from(_:)`. With a third
  /// unlabeled `from` overload (of any parameter type), Swift 6.3.1 gives up on ordinary chains
  /// such as `Observable.from(1...6)` followed by `map`, `filter`, `compactMap`,
  /// `distinctUntilChanged` and `scan(0, +)` with literal closures ("unable to type-check this
  /// expression in reasonable time", where two overloads take under 20 ms); a converting
  /// initializer costs those chains nothing.
  ///
  /// - Parameters:
  ///   - sequence: The asynchronous sequence to iterate, once per subscriber.
  ///   - priority: The priority of the iterating task; `nil` for the default.
  public init<Source: AsyncSequence & Sendable>(
    _ sequence: Source,
    priority: TaskPriority? = nil
  ) where Source.Element == Element, Source.Failure == Failure {
    self = Observable.makeTask(priority: priority) { observer in
      var iterator = sequence.makeAsyncIterator()
      do throws(Failure) {
        while let element = try await iterator.next(isolation: #isolation) {
          guard !Task.isCancelled else { return }
          observer.onNext(element)
        }
        guard !Task.isCancelled else { return }
        observer.onCompleted()
      } catch {
        guard !Task.isCancelled else { return }
        observer.onError(error)
      }
    }
  }
}
