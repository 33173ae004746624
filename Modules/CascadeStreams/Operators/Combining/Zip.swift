extension ObservableType {
  /// Combines the values of this stream and `other` pairwise, by position, with
  /// `resultSelector`: the first value of each, then the second of each, and so on.
  ///
  /// Each source's values wait in an unbounded queue until every other source has a value at the
  /// same position. The result fails as soon as a source fails or `resultSelector` throws, and
  /// completes once every source has completed. A source that completes is let go of at once,
  /// while its queued values still wait for their partners.
  ///
  /// This is RxSwift's `zip` and passes its test cases for two and three sources. Like
  /// RxSwift's, a result whose sources have completed except one goes on until that one ends,
  /// even when no further combination can be formed; a stream of `Never` failure whose source
  /// never ends therefore never ends either.
  ///
  /// ```swift
  /// requests.zip(responses) { request, response in (request.id, response.status) }
  /// ```
  ///
  /// - Parameters:
  ///   - other: The second source.
  ///   - resultSelector: Combines the values at one position; runs on the delivering thread,
  ///     never under a lock. What it throws fails the result.
  /// - Returns: A stream of the combined values.
  public func zip<Other: ObservableType, Result: Sendable>(
    _ other: Other,
    _ resultSelector: @escaping @Sendable (Element, Other.Element) throws(Failure) -> Result
  ) -> Observable<Result, Failure> where Other.Failure == Failure {
    Observable(unchecked: { observer in
      // Two sources take the pair path: no array per combination.
      let sink = ZipSink<Result, Failure>(downstream: observer) {
        first,
        second throws(Failure) in
        try resultSelector(first as! Element, second as! Other.Element)
      }
      sink.subscribe(self, at: 0)
      sink.subscribe(other, at: 1)
      return sink
    })
  }

  /// Pairs the values of this stream and `other` by position.
  ///
  /// See `zip(_:_:)` for the terminal rules.
  ///
  /// ```swift
  /// Observable.of(1, 2, 3).zip(Observable.of("a", "b"))  // (1, "a"), (2, "b")
  /// ```
  ///
  /// - Parameter other: The second source.
  /// - Returns: A stream of pairs of values at the same position.
  public func zip<Other: ObservableType>(
    _ other: Other
  ) -> Observable<(Element, Other.Element), Failure> where Other.Failure == Failure {
    zip(other) { ($0, $1) }
  }

  /// Combines the values of this stream, `second` and `third` by position, with
  /// `resultSelector`.
  ///
  /// See `zip(_:_:)` for the terminal rules.
  ///
  /// ```swift
  /// red.zip(green, blue) { Color(red: $0, green: $1, blue: $2) }
  /// ```
  ///
  /// - Parameters:
  ///   - second: The second source.
  ///   - third: The third source.
  ///   - resultSelector: Combines the values at one position; runs on the delivering thread,
  ///     never under a lock. What it throws fails the result.
  /// - Returns: A stream of the combined values.
  public func zip<Second: ObservableType, Third: ObservableType, Result: Sendable>(
    _ second: Second,
    _ third: Third,
    _ resultSelector:
      @escaping @Sendable (Element, Second.Element, Third.Element) throws(Failure) -> Result
  ) -> Observable<Result, Failure> where Second.Failure == Failure, Third.Failure == Failure {
    Observable(unchecked: { observer in
      let sink = ZipSink<Result, Failure>(downstream: observer, count: 3) {
        values throws(Failure) in
        try resultSelector(
          values[0] as! Element,
          values[1] as! Second.Element,
          values[2] as! Third.Element
        )
      }
      sink.subscribe(self, at: 0)
      sink.subscribe(second, at: 1)
      sink.subscribe(third, at: 2)
      return sink
    })
  }

  /// Groups the values of this stream, `second` and `third` into triples, by position.
  ///
  /// See `zip(_:_:)` for the terminal rules.
  ///
  /// - Parameters:
  ///   - second: The second source.
  ///   - third: The third source.
  /// - Returns: A stream of triples of values at the same position.
  public func zip<Second: ObservableType, Third: ObservableType>(
    _ second: Second,
    _ third: Third
  ) -> Observable<(Element, Second.Element, Third.Element), Failure>
  where Second.Failure == Failure, Third.Failure == Failure {
    zip(second, third) { ($0, $1, $2) }
  }
}

extension Observable {
  /// Emits an array of the values of all `sources` at the same position: the first value of
  /// each, then the second of each, and so on.
  ///
  /// The array is in the order of `sources`. See `zip(_:_:)` for the terminal rules; with no
  /// sources, the result completes at once.
  ///
  /// RxSwift's `zip` of a collection completes in one more case than its `zip` of two or three
  /// sources: when a source emits a value that cannot be paired while every other source has
  /// completed. Here every form follows the same rule (completion once every source has
  /// completed), so one of RxSwift's collection cases (`testZip_NAry_asymmetric`) ends later
  /// here.
  ///
  /// ```swift
  /// Observable.zip(pages.map { $0.asObservable() })  // one array per round of pages
  /// ```
  ///
  /// - Parameter sources: The streams to zip.
  /// - Returns: A stream of arrays of the values at one position, in the order of `sources`.
  public static func zip(_ sources: [Observable]) -> Observable<[Element], Failure> {
    Observable<[Element], Failure>(unchecked: { observer in
      let sink = ZipSink<[Element], Failure>(downstream: observer, count: sources.count) {
        values in values.map { $0 as! Element }
      }
      if sources.isEmpty {
        sink.forwardTerminal(.completed)
        return sink
      }
      for (index, source) in sources.enumerated() {
        sink.subscribe(source, at: index)
      }
      return sink
    })
  }
}

/// What `ZipSink` queues for delivery: the values of one position, or a terminal event.
enum ZipItem<Failure: Error> {
  case values([any Sendable])
  /// The values of one position of two sources: without the array `values` needs, which would
  /// be an allocation per combination (W6c).
  case pair(any Sendable, any Sendable)
  case failure(Failure)
  case completed
}

/// The subscription behind `zip`: one queue per source of the values waiting for their partners.
///
/// A source's value joins its queue and, once every queue holds a value, the first of each is
/// taken and enqueued for delivery in the same critical section, so the combinations are
/// delivered in the order they were formed; the result selector runs on the draining thread,
/// outside the lock. A source that completes has its own subscription disposed at once.
final class ZipSink<Result: Sendable, Failure: Error>:
  OrderedSink<Result, Failure, ZipItem<Failure>>, @unchecked Sendable
{
  // Safety: `queues`, `filled`, `completed`, `completedCount` and `stopped` are read and written
  // only with `lock` held; `resultSelector` and `subscriptions` are immutable.
  private let resultSelector: @Sendable ([any Sendable]) throws(Failure) -> Result
  private let pairSelector: (@Sendable (any Sendable, any Sendable) throws(Failure) -> Result)?
  private let subscriptions: [SingleAssignmentDisposable]
  private var queues: [FIFO<any Sendable>]
  /// How many queues hold at least one value.
  private var filled = 0
  private var completed: [Bool]
  private var completedCount = 0
  private var stopped = false

  init(
    downstream: AnyObserver<Result, Failure>,
    count: Int,
    resultSelector: @escaping @Sendable ([any Sendable]) throws(Failure) -> Result
  ) {
    self.resultSelector = resultSelector
    pairSelector = nil
    subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
    queues = Array(repeating: FIFO(), count: count)
    completed = Array(repeating: false, count: count)
    super.init(downstream: downstream)
  }

  /// A sink for two sources, combining each pair with `pairSelector`.
  init(
    downstream: AnyObserver<Result, Failure>,
    pairSelector: @escaping @Sendable (any Sendable, any Sendable) throws(Failure) -> Result
  ) {
    self.pairSelector = pairSelector
    resultSelector = { values throws(Failure) in try pairSelector(values[0], values[1]) }
    subscriptions = [SingleAssignmentDisposable(), SingleAssignmentDisposable()]
    queues = [FIFO(), FIFO()]
    completed = [false, false]
    super.init(downstream: downstream)
  }

  /// Subscribes `source` as the source of queue `index`.
  func subscribe<Source: ObservableType>(_ source: Source, at index: Int)
  where Source.Failure == Failure {
    guard !isDisposed else { return }
    let subscription = subscriptions[index]
    upstream.insert(subscription)
    subscription.setDisposable(
      source.subscribe(
        observer { [self] (event: StreamEvent<Source.Element, Failure>) in
          receive(event.map { $0 as any Sendable }, at: index)
        }
      )
    )
  }

  private func receive(_ event: StreamEvent<any Sendable, Failure>, at index: Int) {
    lock.lock()
    guard !stopped, !isDisposed else {
      lock.unlock()
      return
    }
    var shouldDrain = false
    var finished: SingleAssignmentDisposable?
    switch event {
    case .next(let value):
      if queues[index].isEmpty { filled += 1 }
      queues[index].append(value)
      if filled == queues.count, pairSelector != nil {
        let first = queues[0].removeFirst()
        let second = queues[1].removeFirst()
        filled = (queues[0].isEmpty ? 0 : 1) + (queues[1].isEmpty ? 0 : 1)
        shouldDrain = enqueue(.pair(first, second))
      } else if filled == queues.count {
        filled = 0
        var values: [any Sendable] = []
        values.reserveCapacity(queues.count)
        for position in queues.indices {
          values.append(queues[position].removeFirst())
          if !queues[position].isEmpty { filled += 1 }
        }
        shouldDrain = enqueue(.values(values))
      }
    case .error(let failure):
      stopped = true
      shouldDrain = enqueue(.failure(failure))
    case .completed:
      if !completed[index] {
        completed[index] = true
        completedCount += 1
      }
      if completedCount == queues.count {
        stopped = true
        shouldDrain = enqueue(.completed)
      } else {
        finished = subscriptions[index]
      }
    }
    lock.unlock()
    finished?.dispose()
    if shouldDrain { drain() }
  }

  override func handle(_ item: ZipItem<Failure>) {
    switch item {
    case .values(let values):
      let result: Result
      do throws(Failure) {
        result = try resultSelector(values)
      } catch {
        lock.withLock { stopped = true }
        return forward(.error(error))
      }
      forward(.next(result))
    case .pair(let first, let second):
      let result: Result
      do throws(Failure) {
        // Only the two-source sink enqueues pairs, and it has a pair selector.
        result = try pairSelector!(first, second)
      } catch {
        lock.withLock { stopped = true }
        return forward(.error(error))
      }
      forward(.next(result))
    case .failure(let failure): forward(.error(failure))
    case .completed: forward(.completed)
    }
  }

  override func didDispose() {
    lock.withLock {
      for index in queues.indices { queues[index].removeAll() }
    }
  }
}
