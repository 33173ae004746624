extension ObservableType {
  /// The stream's values as an `AsyncSequence`, buffered without bound.
  ///
  /// Each iteration subscribes anew (in `makeAsyncIterator()`), so a cold stream starts over for
  /// every `for await` loop. Values the stream pushes faster than the loop consumes them wait in
  /// an **unbounded** buffer; use ``values(bufferingPolicy:)`` to bound it.
  ///
  /// For a stream that cannot fail (`Failure == Never`) the loop needs no `try`; otherwise the
  /// iterator throws the stream's `Failure` (typed throws). Completion ends the loop. Cancelling
  /// the consuming task, breaking out of the loop or dropping the iterator disposes the
  /// subscription; cancellation ends the loop quietly, without an error.
  ///
  /// ```swift
  /// for await count in store.state.map(\.count).values {
  ///   print(count)
  /// }
  ///
  /// do {
  ///   for try await page in pages.values { show(page) }  // Failure == HTTPError
  /// } catch {
  ///   show(error)  // error: HTTPError
  /// }
  /// ```
  public var values: ObservableValues<Element, Failure> {
    ObservableValues(source: asObservable(), bufferingPolicy: .unbounded)
  }

  /// The stream's values as an `AsyncSequence`, buffered according to `bufferingPolicy`.
  ///
  /// Like ``values``, but values pushed while the loop is busy are kept as `bufferingPolicy`
  /// says; when a bounded buffer is full, the policy decides which values are dropped. Terminal
  /// events are never dropped: completion or failure is delivered after the buffered values.
  ///
  /// ```swift
  /// // A slow consumer that only cares about the latest position.
  /// for await position in positions.values(bufferingPolicy: .bufferingNewest(1)) {
  ///   await render(position)
  /// }
  /// ```
  ///
  /// - Parameter bufferingPolicy: What to keep while the consumer is busy.
  /// - Returns: An asynchronous sequence of the stream's values.
  public func values(
    bufferingPolicy: ObservableValues<Element, Failure>.BufferingPolicy
  ) -> ObservableValues<Element, Failure> {
    ObservableValues(source: asObservable(), bufferingPolicy: bufferingPolicy)
  }
}

/// A push-based stream seen as an `AsyncSequence`: the bridge from streams into `async` code.
///
/// Streams are the core of Cascade because their delivery can be synchronous: a value sent to a
/// subject reaches every subscriber before `onNext` returns, on the sender's thread, so state
/// derived from it is consistent at once and costs a function call per operator. An
/// `AsyncSequence` suspends between values and resumes on an executor, which suits `async` code
/// but loses that immediacy. This type is the bridge for `async` code: create it with
/// ``ObservableType/values`` or ``ObservableType/values(bufferingPolicy:)`` and iterate it with
/// `for await` (or `for try await` when the stream can fail).
///
/// Each call to `makeAsyncIterator()` subscribes once to the source; the subscription pushes into
/// a buffer (an `AsyncStream` underneath) that the iterator drains. The subscription is disposed
/// when the stream terminates, when the consuming task is cancelled, or when the iterator is
/// dropped. The iterator throws `Failure` with typed throws, so for `Failure == Never` the loop
/// does not throw at all.
///
/// ```swift
/// let subject = PublishSubject<Int, Never>()
/// Task {
///   for await value in subject.values { print(value) }
/// }
/// ```
public struct ObservableValues<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  /// What the buffer between the stream and the consuming loop keeps when the loop is busy.
  public enum BufferingPolicy: Sendable, Hashable {
    /// Keep every value: the default. Memory grows while the consumer lags.
    case unbounded
    /// Keep at most the newest `limit` values; when full, the oldest buffered value is dropped to
    /// make room for the new one.
    case bufferingNewest(Int)
    /// Keep at most the oldest `limit` values; when full, the new value is dropped.
    case bufferingOldest(Int)
  }

  private let source: Observable<Element, Failure>
  private let bufferingPolicy: BufferingPolicy

  init(source: Observable<Element, Failure>, bufferingPolicy: BufferingPolicy) {
    if case .bufferingNewest(let limit) = bufferingPolicy {
      precondition(limit >= 0, "bufferingNewest limit must not be negative")
    }
    if case .bufferingOldest(let limit) = bufferingPolicy {
      precondition(limit >= 0, "bufferingOldest limit must not be negative")
    }
    self.source = source
    self.bufferingPolicy = bufferingPolicy
  }

  /// Subscribes to the stream and returns an iterator over its values.
  ///
  /// A synchronous stream delivers into the buffer before this returns; the buffering policy
  /// applies to those values as to any others.
  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncStream<Element>.makeStream(
      bufferingPolicy: bufferingPolicy.asyncStreamPolicy
    )
    let failure = LockedValue<Failure?>(nil)
    let subscription = SingleAssignmentDisposable()
    // Runs once: when the stream finishes (terminal event), the consuming task is cancelled, or
    // the last reference to the iterator goes away.
    continuation.onTermination = { _ in subscription.dispose() }
    subscription.setDisposable(
      source.subscribe(
        onNext: { element in continuation.yield(element) },
        onError: { error in
          // Recorded before `finish()`, so the iterator sees it once the buffer drains.
          failure.withLock { $0 = error }
          continuation.finish()
        },
        onCompleted: { continuation.finish() }
      )
    )
    return Iterator(base: stream.makeAsyncIterator(), failure: failure)
  }

  /// The iterator of ``ObservableValues``: yields buffered values, then ends or throws.
  ///
  /// Dropping it disposes the subscription it owns.
  public struct Iterator: AsyncIteratorProtocol {
    private var base: AsyncStream<Element>.Iterator
    private let failure: LockedValue<Failure?>

    init(base: AsyncStream<Element>.Iterator, failure: LockedValue<Failure?>) {
      self.base = base
      self.failure = failure
    }

    /// The next value, or `nil` once the stream has completed or the task was cancelled.
    ///
    /// - Throws: The stream's failure, once, after the values buffered before it.
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      if let element = await base.next(isolation: actor) { return element }
      let failure = failure.withLock { failure in
        defer { failure = nil }
        return failure
      }
      if let failure { throw failure }
      return nil
    }

    /// The next value, or `nil` once the stream has completed or the task was cancelled.
    ///
    /// - Throws: The stream's failure, once, after the values buffered before it.
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: #isolation)
    }
  }
}

@available(*, unavailable)
extension ObservableValues.Iterator: Sendable {}

extension ObservableValues.BufferingPolicy {
  fileprivate var asyncStreamPolicy: AsyncStream<Element>.Continuation.BufferingPolicy {
    switch self {
    case .unbounded: .unbounded
    case .bufferingNewest(let limit): .bufferingNewest(limit)
    case .bufferingOldest(let limit): .bufferingOldest(limit)
    }
  }
}
