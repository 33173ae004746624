// The seeds' spellings: the names the ReactiveFeedback and SwiftReactor seeds' code uses for
// operators CascadeStreams names in RxSwift's vocabulary.
//
// ReactiveFeedback's examples recover with ReactiveSwift's `flatMapError`; SwiftReactor's, being
// Combine code, write `prepend`, `delay(for:scheduler:)` with a number of seconds and
// `eraseToAnyPublisher()`. Code ported from them compiles unchanged with the forms below. They
// are not deprecated: each forwards to the operator it names, and behaves as it does.

extension ObservableType {
  /// Replaces a failure with the stream `handler` returns for it.
  ///
  /// ReactiveSwift's and the ReactiveFeedback seed's spelling of ``catch(_:)``.
  ///
  /// ```swift
  /// URLSession.shared.fetchMovies(page: nextPage)
  ///   .map(Event.response)
  ///   .flatMapError { error in Observable.just(Event.failed(error)) }
  /// ```
  ///
  /// - Parameter handler: Returns the stream that continues after a failure.
  /// - Returns: A stream of this stream's events, continued after a failure by the recovery stream's.
  public func flatMapError<Recovery: ObservableType>(
    _ handler: @escaping @Sendable (Failure) -> Recovery
  ) -> Observable<Element, Recovery.Failure> where Recovery.Element == Element {
    self.catch(handler)
  }

  /// Emits `elements` first, then this stream's events.
  ///
  /// Combine's and the SwiftReactor seed's spelling of ``startWith(_:)``.
  ///
  /// ```swift
  /// mutation.prepend(.setText("hello"))
  /// ```
  ///
  /// - Parameter elements: The values emitted before this stream's.
  /// - Returns: A stream of `elements`, then this stream's events.
  public func prepend(_ elements: Element...) -> Observable<Element, Failure> {
    startingWith(elements)
  }

  /// Shifts every value and the completion later by `seconds` on `scheduler`.
  ///
  /// Combine's and the SwiftReactor seed's spelling of ``delay(_:scheduler:)``, with the delay a
  /// number of seconds, as a number literal reads where Combine takes a `DispatchQueue`'s stride:
  ///
  /// ```swift
  /// Observable.just(Mutation.setSwitch(!value)).delay(for: 2, scheduler: DispatchQueue.global())
  /// ```
  ///
  /// A delay of 100 years or more (`.infinity`) means never, as on every ``Scheduler``.
  ///
  /// - Parameters:
  ///   - seconds: How many seconds later each event is delivered; not NaN.
  ///   - scheduler: The scheduler that measures the delay and delivers the events.
  /// - Returns: A stream of the same events, later.
  public func delay(
    for seconds: Double,
    scheduler: some Scheduler
  ) -> Observable<Element, Failure> {
    precondition(!seconds.isNaN, "delay(for:scheduler:) needs a number of seconds, not NaN")
    // 10^12 seconds is past the 100 years that mean never, and converts to a `Duration` safely.
    return delay(.seconds(min(max(seconds, -1e12), 1e12)), scheduler: scheduler)
  }

  /// This stream, type-erased.
  ///
  /// Combine's and the SwiftReactor seed's spelling of ``asObservable()``: Cascade's type-erased
  /// stream is ``Observable``, where Combine's is `AnyPublisher`.
  @inlinable
  public func eraseToAnyPublisher() -> Observable<Element, Failure> {
    asObservable()
  }
}
