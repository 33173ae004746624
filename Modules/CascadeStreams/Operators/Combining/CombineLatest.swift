extension ObservableType {
  /// Combines the latest values of this stream and `other` with `resultSelector`, each time
  /// either emits, once both have emitted.
  ///
  /// Nothing is emitted until every source has emitted a value. The result fails as soon as one
  /// source fails, and completes when every source has completed, or at once when a source
  /// completes without ever emitting (no combination can be formed any more); a source that
  /// completes is let go of at once. RxSwift's, in that last case, waits for a value that cannot
  /// be combined, or for every source to complete.
  ///
  /// ```swift
  /// name.combineLatest(age) { name, age in "\(name), \(age)" }
  /// ```
  ///
  /// - Parameters:
  ///   - other: The second source.
  ///   - resultSelector: Combines the latest values; runs on the delivering thread, never under
  ///     a lock.
  /// - Returns: A stream of the combined latest values.
  public func combineLatest<Other: ObservableType, Result: Sendable>(
    _ other: Other,
    _ resultSelector: @escaping @Sendable (Element, Other.Element) -> Result
  ) -> Observable<Result, Failure> where Other.Failure == Failure {
    Observable(unchecked: { observer in
      let sink = CombineLatestSink<Result, Failure>(downstream: observer, count: 2) { values in
        resultSelector(values[0] as! Element, values[1] as! Other.Element)
      }
      sink.subscribe(self, at: 0)
      sink.subscribe(other, at: 1)
      return sink
    })
  }

  /// Pairs the latest values of this stream and `other`, each time either emits, once both have
  /// emitted.
  ///
  /// See `combineLatest(_:_:)` for the terminal rules.
  ///
  /// - Parameter other: The second source.
  /// - Returns: A stream of pairs of the latest values.
  public func combineLatest<Other: ObservableType>(
    _ other: Other
  ) -> Observable<(Element, Other.Element), Failure> where Other.Failure == Failure {
    combineLatest(other) { ($0, $1) }
  }

  /// Combines the latest values of this stream, `second` and `third` with `resultSelector`, each
  /// time one of them emits, once all three have emitted.
  ///
  /// See `combineLatest(_:_:)` for the terminal rules.
  ///
  /// - Parameters:
  ///   - second: The second source.
  ///   - third: The third source.
  ///   - resultSelector: Combines the latest values; runs on the delivering thread, never under
  ///     a lock.
  /// - Returns: A stream of the combined latest values.
  public func combineLatest<Second: ObservableType, Third: ObservableType, Result: Sendable>(
    _ second: Second,
    _ third: Third,
    _ resultSelector: @escaping @Sendable (Element, Second.Element, Third.Element) -> Result
  ) -> Observable<Result, Failure> where Second.Failure == Failure, Third.Failure == Failure {
    Observable(unchecked: { observer in
      let sink = CombineLatestSink<Result, Failure>(downstream: observer, count: 3) { values in
        resultSelector(
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

  /// Groups the latest values of this stream, `second` and `third` into a tuple, each time one of
  /// them emits, once all three have emitted.
  ///
  /// - Parameters:
  ///   - second: The second source.
  ///   - third: The third source.
  /// - Returns: A stream of triples of the latest values.
  public func combineLatest<Second: ObservableType, Third: ObservableType>(
    _ second: Second,
    _ third: Third
  ) -> Observable<(Element, Second.Element, Third.Element), Failure>
  where Second.Failure == Failure, Third.Failure == Failure {
    combineLatest(second, third) { ($0, $1, $2) }
  }
}

extension Observable {
  /// Emits an array of the latest values of all `sources`, each time one of them emits, once all
  /// have emitted.
  ///
  /// The array is in the order of `sources`. See `combineLatest(_:_:)`
  /// for the terminal rules; with no sources, the result completes at once.
  ///
  /// ```swift
  /// Observable.combineLatest(fields.map(\.isValid))
  ///   .map { $0.allSatisfy { $0 } }  // whether the whole form is valid
  /// ```
  ///
  /// - Parameter sources: The streams to combine.
  /// - Returns: A stream of arrays of the latest values, in the order of `sources`.
  public static func combineLatest(_ sources: [Observable]) -> Observable<[Element], Failure> {
    Observable<[Element], Failure>(unchecked: { observer in
      let sink = CombineLatestSink<[Element], Failure>(
        downstream: observer,
        count: sources.count
      ) { values in
        values.map { $0 as! Element }
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

/// What `CombineLatestSink` queues for delivery: a snapshot of the latest values, or a terminal
/// event.
enum CombineLatestItem<Failure: Error> {
  case values([any Sendable])
  case failure(Failure)
  case completed
}

/// The subscription behind `combineLatest`: one slot per source holding its latest value.
///
/// A source's value updates its slot and, once every slot is filled, enqueues a snapshot in the
/// same critical section, so snapshots are delivered in the order the values arrived; the result
/// selector runs on the draining thread, outside the lock. A source that completes has its own
/// subscription disposed at once.
final class CombineLatestSink<Result: Sendable, Failure: Error>:
  OrderedSink<Result, Failure, CombineLatestItem<Failure>>, @unchecked Sendable
{
  // Safety: `latest`, `filled`, `completed`, `completedCount` and `stopped` are read and written
  // only with `lock` held; `resultSelector` and `subscriptions` are immutable.
  private let resultSelector: @Sendable ([any Sendable]) -> Result
  private let subscriptions: [SingleAssignmentDisposable]
  private var latest: [(any Sendable)?]
  private var filled = 0
  private var completed: [Bool]
  private var completedCount = 0
  private var stopped = false

  init(
    downstream: AnyObserver<Result, Failure>,
    count: Int,
    resultSelector: @escaping @Sendable ([any Sendable]) -> Result
  ) {
    self.resultSelector = resultSelector
    latest = Array(repeating: nil, count: count)
    completed = Array(repeating: false, count: count)
    subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
    super.init(downstream: downstream)
  }

  /// Subscribes `source` as the source of slot `index`.
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
    guard !stopped else {
      lock.unlock()
      return
    }
    var shouldDrain = false
    var finished: SingleAssignmentDisposable?
    switch event {
    case .next(let value):
      if latest[index] == nil { filled += 1 }
      latest[index] = value
      if filled == latest.count {
        shouldDrain = enqueue(.values(latest.map { $0! }))
      }
    case .error(let failure):
      stopped = true
      shouldDrain = enqueue(.failure(failure))
    case .completed:
      if !completed[index] {
        completed[index] = true
        completedCount += 1
      }
      if completedCount == latest.count || latest[index] == nil {
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

  override func handle(_ item: CombineLatestItem<Failure>) {
    switch item {
    case .values(let values): forward(.next(resultSelector(values)))
    case .failure(let failure): forward(.error(failure))
    case .completed: forward(.completed)
    }
  }
}
