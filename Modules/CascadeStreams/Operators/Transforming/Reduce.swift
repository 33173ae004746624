extension ObservableType {
  /// Folds every value into an accumulated result, emitted once the stream completes.
  ///
  /// `accumulate` combines the result so far (`initial` at first) with each value. When the
  /// stream completes, the result is emitted and followed by completion; a stream that completes
  /// empty emits `initial`. A failure of the stream, or one thrown by `accumulate`, fails the
  /// result, and a stream that never ends never emits. This is RxSwift's
  /// `reduce(_:accumulator:)`, spelled like the standard library's `reduce(_:_:)`; the
  /// accumulator throws the stream's typed `Failure`.
  ///
  /// ```swift
  /// Observable.of(1, 2, 3).reduce(0, +)  // 6, then completion
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The result before any value.
  ///   - accumulate: Combines the result so far with a value; what it throws fails the result.
  /// - Returns: A stream of the one accumulated result.
  public func reduce<Result: Sendable>(
    _ initial: Result,
    _ accumulate: @escaping @Sendable (Result, Element) throws(Failure) -> Result
  ) -> Observable<Result, Failure> {
    reduce(initial, accumulate, mapResult: { $0 })
  }

  /// Folds every value into an accumulated result and emits `mapResult` of it once the stream
  /// completes.
  ///
  /// See ``reduce(_:_:)`` for the terminal rules; what `mapResult` throws fails the result.
  ///
  /// ```swift
  /// prices.reduce(0, +, mapResult: { total in "\(total) €" })
  /// ```
  ///
  /// - Parameters:
  ///   - initial: The accumulated value before any value.
  ///   - accumulate: Combines the accumulated value with a value.
  ///   - mapResult: Turns the final accumulated value into the result.
  /// - Returns: A stream of the one result.
  public func reduce<Accumulated: Sendable, Result: Sendable>(
    _ initial: Accumulated,
    _ accumulate: @escaping @Sendable (Accumulated, Element) throws(Failure) -> Accumulated,
    mapResult: @escaping @Sendable (Accumulated) throws(Failure) -> Result
  ) -> Observable<Result, Failure> {
    Observable(unchecked: { observer in
      let sink = ReduceSink(
        downstream: observer,
        initial: initial,
        accumulate: accumulate,
        mapResult: mapResult
      )
      sink.upstream.insert(self.subscribe(sink.observer { sink.on($0) }))
      return sink
    })
  }
}

/// The subscription behind `reduce`.
package final class ReduceSink<
  Element: Sendable,
  Accumulated: Sendable,
  Result: Sendable,
  Failure: Error
>: Sink<Result, Failure>, @unchecked Sendable {
  // `package`, not internal: Swift 6.3 warns of a spurious infinite recursion for an internal
  // subclass of the package class `Sink` that declares its own initializer.

  // Safety: `accumulated` is only touched from `on(_:)`, called by the single upstream, whose
  // events never overlap; the closures are immutable.
  private var accumulated: Accumulated
  private let accumulate: @Sendable (Accumulated, Element) throws(Failure) -> Accumulated
  private let mapResult: @Sendable (Accumulated) throws(Failure) -> Result

  init(
    downstream: AnyObserver<Result, Failure>,
    initial: Accumulated,
    accumulate: @escaping @Sendable (Accumulated, Element) throws(Failure) -> Accumulated,
    mapResult: @escaping @Sendable (Accumulated) throws(Failure) -> Result
  ) {
    accumulated = initial
    self.accumulate = accumulate
    self.mapResult = mapResult
    super.init(downstream: downstream)
  }

  func on(_ event: StreamEvent<Element, Failure>) {
    guard !isDisposed else { return }
    switch event {
    case .next(let element):
      do throws(Failure) {
        accumulated = try accumulate(accumulated, element)
      } catch {
        forwardTerminal(.error(error))
      }
    case .error(let failure):
      forwardTerminal(.error(failure))
    case .completed:
      let result: Result
      do throws(Failure) {
        result = try mapResult(accumulated)
      } catch {
        return forwardTerminal(.error(error))
      }
      forward(.next(result))
      forwardTerminal(.completed)
    }
  }
}
